import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Holds an exclusive advisory lock on the data directory while `body` runs, so two processes
/// opening one new database at the same moment create, check and migrate it one after the
/// other. GRDB's migrator reads which migrations ran before it takes the write lock: the
/// second process ran the first migration again, and failed (`UNIQUE constraint failed:
/// course.id`, 1 start in 6); and a file half migrated by the other looks like no EduGo
/// database to the check of an existing file. The lock is `flock` on the directory, never a lock on the database file: closing a
/// descriptor of that file would drop SQLite's own POSIX locks.
enum MigrationLock {
    static func holding<T, Failure: Error>(_ directory: URL, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // A directory that cannot be opened for reading cannot be locked: migrate as before.
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
