import Foundation
import GRDB
import Platform
import SharedKernel

#if canImport(Glibc)
import Glibc
#endif

/// How an access waits for another program that holds the database: SQLite's busy timeout,
/// after which the access starts waiting again (the app's never gives up), or, with a
/// `writeTimeLimit` (the server's), until the write's time is up.
public struct BusyPolicy: Sendable {
    public var timeout: TimeInterval
    /// Told each time a wait ran its full timeout and starts again, so a test can await it.
    public var waitingAgain: @Sendable () -> Void
    /// nil: a write waits as long as it takes (SPEC: the app never drops a write because
    /// another process is writing).
    public var writeTimeLimit: WriteTimeLimit?

    public init(
        timeout: TimeInterval = 10, writeTimeLimit: WriteTimeLimit? = nil, waitingAgain: @escaping @Sendable () -> Void = {}
    ) {
        self.timeout = timeout
        self.writeTimeLimit = writeTimeLimit
        self.waitingAgain = waitingAgain
    }
}

/// How long a write may take to start, from when it was asked: the server's, whose client
/// stops waiting after 10 s. A write that cannot take the database's lock in time (another
/// process holds it, or the writes queued before it took the time) is refused unwritten, and
/// never lands later: its time is checked when its turn comes and bounds SQLite's wait for
/// the lock.
public struct WriteTimeLimit: Sendable {
    public let limit: Duration
    /// Time since a fixed moment, on the clock the limit is measured on.
    let stopwatch: Stopwatch

    /// `limit` on the wall clock.
    public init(_ limit: Duration) {
        self.init(limit, clock: ContinuousClock())
    }

    /// `limit` on `clock` (tests hold one). SQLite's own wait for the lock is measured on the
    /// wall clock: it is given what is left of the limit when the write's turn comes.
    public init<C: Clock<Duration>>(_ limit: Duration, clock: C) {
        self.limit = limit
        stopwatch = Stopwatch(clock)
    }
}

/// The app's one SQLite database: opened safely, migrated, seeded on first run.
public struct AppDatabase: Sendable {
    /// The file name inside the data directory.
    public static let fileName = "edugo.sqlite"
    /// `PRAGMA application_id` of our databases ("EdGo"), to recognise files that are not ours.
    static let applicationID: Int32 = 0x4564_476F

    let writer: DatabasePool
    public let path: String
    let busy: BusyPolicy
    /// How many accesses wait for a connection of the pool and how many hold one (metrics).
    public let use = DatabaseUse()

    /// Closes every connection now, the WAL's last checkpoint included, rather than whenever the
    /// last reference goes: whoever hands the file to another program next (a test's server, a
    /// test reading it) does not race that checkpoint's lock. Nothing may use it afterwards.
    public func close() throws {
        try writer.close()
    }

    /// Opens (creating if needed) the database in `directory`, which is created with mode 0700.
    /// A file that is not ours, or is from a newer version, is refused and left untouched, as
    /// is one that cannot be opened (locked, unreadable, a full disk): each says why, and an
    /// open that is refused leaves no side file behind. The database and its side files are
    /// readable by their owner only. `pageCacheKibibytes` bounds each connection's page cache
    /// (nil: SQLite's 2 MiB): the terminal app keeps it small, a server large.
    public static func open(
        directory: URL,
        passwordHasher: PasswordHasher = PasswordHasher(),
        seedCatalog: @escaping @Sendable () throws -> [CourseEntry] = { try BuiltInCatalog.load() },
        busy: BusyPolicy = BusyPolicy(),
        today: LearnerDay? = nil,
        pageCacheKibibytes: Int? = nil
    ) throws(StorageError) -> AppDatabase {
        try createDirectory(directory)
        let path = directory.appendingPathComponent(fileName).path
        let migrator = Migrations.migrator(passwordHasher: passwordHasher, seedCatalog: seedCatalog, today: today)
        // One process at a time creates, checks and migrates: see MigrationLock.
        return try MigrationLock.holding(directory) { () throws(StorageError) -> AppDatabase in
            let sideFiles = SideFiles(databasePath: path)
            let createdFile = try createPrivateFile(at: path)
            do throws(StorageError) {
                // A file whose header says it is ours and in WAL mode is checked by the pool's
                // writer as it connects, before the pool writes anything (GRDB makes sure of a
                // WAL file by writing): a connection opened and closed less on every start
                // (3 ms). Any other is looked at read-only first.
                let ours = !createdFile && isOursInWAL(path)
                if !createdFile, !ours { try checkExistingFile(at: path, migrator: migrator) }
                var configuration = Configuration()
                if ours {
                    configuration.prepareDatabase { db in
                        // The readers write nothing; the writer is checked once.
                        guard !db.configuration.readonly else { return }
                        if try migrator.hasBeenSuperseded(db) { throw NewerSchema() }
                    }
                }
                // Another instance's write is waited for, not reported as an error.
                configuration.busyMode = .timeout(busy.timeout)
                configuration.label = "EduGo"
                if let pageCacheKibibytes {
                    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(max(64, pageCacheKibibytes))") }
                }
                let pool = try openPool(path: path, configuration: configuration)
                do {
                    try migrator.migrate(pool)
                } catch {
                    try? pool.close()
                    throw StorageError.cannotOpen(path: path, reason: Self.openReason(error))
                }
                sideFiles.makePrivate()
                return AppDatabase(writer: pool, path: path, busy: busy)
            } catch {
                sideFiles.removeCreated()
                if createdFile { unlink(path) }
                throw error
            }

        }
    }

    /// The writer's check of a file of ours found migrations this version does not know.
    private struct NewerSchema: Error {}

    private static func openPool(path: String, configuration: Configuration) throws(StorageError) -> DatabasePool {
        do {
            return try DatabasePool(path: path, configuration: configuration)
        } catch is NewerSchema {
            throw .newerSchema(path: path)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .notADatabase(path: path)
        } catch {
            throw .cannotOpen(path: path, reason: openReason(error))
        }
    }

    /// Creates an empty database file with mode 0600 if there is none, so SQLite's side files
    /// (which copy its mode) are private too; an existing file of ours is made 0600. Returns
    /// whether the file was created here.
    private static func createPrivateFile(at path: String) throws(StorageError) -> Bool {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            Glibc.close(descriptor)
            return true
        }
        guard errno == EEXIST else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        // Checked before anything opens it: a read-only database would make SQLite create
        // side files it could then not use, and keep it unopenable once the mode is fixed.
        guard access(path, R_OK | W_OK) == 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        return false
    }

    /// Makes the data directory (mode 0700) if missing, or checks the one there is writable;
    /// also for remote mode, which keeps its session and log there but no database.
    public static func createDirectory(_ directory: URL) throws(StorageError) {
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
        let header: [UInt8]
        do {
            header = try readHeader(path)
        } catch {
            throw .cannotOpen(path: path, reason: error.description)
        }
        guard !header.isEmpty else { return }  // an empty file is a new database
        guard header == sqliteMagic else { throw .notADatabase(path: path) }

        let verdict: StorageError?
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            verdict = try queue.read { db in
                let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tableCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                if applicationID != Self.applicationID {
                    return tableCount == 0 ? nil : .notAnEduGoDatabase(path: path)
                }
                return try migrator.hasBeenSuperseded(db) ? .newerSchema(path: path) : nil
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .notADatabase(path: path)
        } catch {
            throw .cannotOpen(path: path, reason: openReason(error))
        }
        if let verdict { throw verdict }
    }

    /// Whether the file's header (read as is, without SQLite) names our application id and
    /// WAL mode. A header cannot be trusted further than that: the checks of the contents
    /// (no migrations we do not know) still run, inside the pool.
    private static func isOursInWAL(_ path: String) -> Bool {
        guard let header = try? readHeader(path, count: 72), header.count == 72,
            header.prefix(16).elementsEqual(sqliteMagic),
            header[18] == 2, header[19] == 2
        else { return false }
        let id = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Int32(bitPattern: id) == applicationID
    }

    /// The first 16 bytes of every SQLite database file.
    private static let sqliteMagic = Array("SQLite format 3\0".utf8)

    private struct HeaderError: Error, CustomStringConvertible {
        let description: String
    }

    private static func readHeader(_ path: String, count wanted: Int = 16) throws(HeaderError) -> [UInt8] {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HeaderError(description: String(cString: strerror(errno))) }
        defer { Glibc.close(descriptor) }
        var header = [UInt8](repeating: 0, count: wanted)
        let count = Glibc.read(descriptor, &header, header.count)
        guard count >= 0 else { throw HeaderError(description: String(cString: strerror(errno))) }
        return Array(header.prefix(count))
    }

    /// Why an open failed, in words a person can act on; never "not a database" for a
    /// healthy file that is locked or on a full disk.
    static func openReason(_ error: any Error) -> String {
        if let error = error as? StorageError { return error.description }
        guard let error = error as? DatabaseError else { return reason(error) }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "the database is locked by another program; close it and try again"
        case .SQLITE_FULL:
            return "the disk is full"
        case .SQLITE_PERM, .SQLITE_AUTH, .SQLITE_CANTOPEN:
            return "Permission denied, or the file cannot be opened (\(reason(error)))"
        case .SQLITE_READONLY:
            return "the database or its folder is read-only"
        case .SQLITE_CORRUPT:
            return "the database file is damaged"
        case .SQLITE_NOTADB:
            return "the file is not an SQLite database"
        case .SQLITE_IOERR:
            return "a disk error stopped it (\(reason(error)))"
        default:
            return reason(error)
        }
    }

    static func reason(_ error: any Error) -> String {
        if let damaged = error as? DamagedRow { return damaged.description }
        if let error = error as? DatabaseError {
            return error.message ?? error.description
        }
        return (error as NSError).localizedDescription
    }
}

/// SQLite's side files of a database (`-wal`, `-shm`): made private once open, and removed
/// when an open that created them is refused, so a refusal leaves nothing behind.
struct SideFiles {
    let databasePath: String
    let paths: [String]
    private let existedBefore: Set<String>

    init(databasePath: String) {
        self.databasePath = databasePath
        paths = ["-wal", "-shm", "-journal"].map { databasePath + $0 }
        existedBefore = Set(paths.filter { access($0, F_OK) == 0 })
    }

    /// The database and its side files: 0600, whatever the directory or the umask.
    func makePrivate() {
        for path in [databasePath] + paths where access(path, F_OK) == 0 {
            chmod(path, 0o600)
        }
    }

    /// Removes the side files this open created. A write-ahead log with data in it is never
    /// removed: it can only have come from another process.
    func removeCreated() {
        for path in paths where !existedBefore.contains(path) && access(path, F_OK) == 0 {
            var status = stat()
            if path.hasSuffix("-wal"), stat(path, &status) == 0, status.st_size > 0 { continue }
            unlink(path)
        }
    }
}
