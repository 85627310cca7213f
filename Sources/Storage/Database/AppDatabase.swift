import Foundation
import GRDB
import SharedKernel

#if canImport(Glibc)
import Glibc
#endif

/// The app's one SQLite database: opened safely, migrated, seeded on first run.
public struct AppDatabase: Sendable {
    /// The file name inside the data directory.
    public static let fileName = "edugo.sqlite"
    /// `PRAGMA application_id` of our databases ("EdGo"), to recognise files that are not ours.
    static let applicationID: Int32 = 0x4564_476F

    let writer: DatabasePool
    public let path: String

    /// Opens (creating if needed) the database in `directory`, which is created with mode 0700.
    /// A file that is not ours, or is from a newer version, is refused and left untouched.
    public static func open(
        directory: URL,
        passwordHasher: PasswordHasher = PasswordHasher(),
        seedCatalog: @escaping @Sendable () throws -> [Course] = { try BuiltInCatalog.load() }
    ) throws(StorageError) -> AppDatabase {
        try createDirectory(directory)
        let path = directory.appendingPathComponent(fileName).path
        let migrator = Migrations.migrator(passwordHasher: passwordHasher, seedCatalog: seedCatalog)
        try checkExistingFile(at: path, migrator: migrator)

        do {
            var configuration = Configuration()
            // Another instance's write is waited for, not reported as an error.
            configuration.busyMode = .timeout(10)
            configuration.label = "EduGo"
            let pool = try DatabasePool(path: path, configuration: configuration)
            try migrator.migrate(pool)
            return AppDatabase(writer: pool, path: path)
        } catch {
            throw .cannotOpen(path: path, reason: Self.reason(error))
        }
    }

    private static func createDirectory(_ directory: URL) throws(StorageError) {
        let path = directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .cannotCreateDirectory(path: path, reason: "a file with that name is in the way")
            }
            guard access(path, W_OK | X_OK) == 0 else {
                throw .cannotCreateDirectory(path: path, reason: "the directory is not writable")
            }
            return
        }
        // mkdir(2) one level at a time, so the reason is the system's plain one
        // ("Permission denied", "Not a directory", "Read-only file system").
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/\(component)"
            guard mkdir(current, 0o700) != 0 else { continue }
            let code = errno
            if code == EEXIST { continue }
            let reason = String(cString: strerror(code))
            throw .cannotCreateDirectory(path: path, reason: current == path ? reason : "\(current): \(reason)")
        }
    }

    /// Looks at an existing file without writing to it: SQLite header, our application id,
    /// and no migrations we do not know.
    private static func checkExistingFile(at path: String, migrator: DatabaseMigrator) throws(StorageError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        guard !header.isEmpty else { return }  // an empty file is a new database
        guard header == Data("SQLite format 3\0".utf8) else { throw .notADatabase(path: path) }

        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let verdict: StorageError? = try queue.read { db in
                let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tableCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                if applicationID != Self.applicationID {
                    return tableCount == 0 ? nil : .notAnEduGoDatabase(path: path)
                }
                return try migrator.hasBeenSuperseded(db) ? .newerSchema(path: path) : nil
            }
            try queue.close()
            if let verdict { throw verdict }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .notADatabase(path: path)
        }
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? error.description
        }
        return (error as NSError).localizedDescription
    }
}
