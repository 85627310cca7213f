import Foundation
import GRDB
import Platform
import SharedKernel
import Synchronization

/// The search index of a large bulk import, built on another core while the import writes its
/// rows: a database file of its own, attached to the import's connection before its
/// transaction (SQLite attaches nothing inside one), holds an FTS5 table made as
/// `course_search` is, filled from what the import knows in memory (every course's rank after
/// it, its folded words, its facets); then its pieces (FTS5's `_data`, `_idx` and `_docsize`
/// tables) are copied into a `course_search` made anew in the import's transaction. Filling the
/// index took a core for 27-33 s of a 1 M import after the rows were in; the rows take about as
/// long, so the two overlap and what is left after the rows is the copy.
///
/// Made anew because FTS5 keeps the index's structure in memory per connection and checks it
/// only against other connections' commits (`PRAGMA data_version`): a table already read on
/// this connection would not see its pieces replaced. A table just created has read nothing.
/// `CourseImportTests` checks the copy with FTS5's `integrity-check` against the courses.
final class SideIndex: Sendable {
    /// What the index holds of one course.
    struct Entry: Sendable {
        let rank: Int64
        let searchKey: String
        let facets: String
    }

    /// Imports of fewer courses fill the index in their transaction: a thread and a file are
    /// not worth it.
    static let threshold = 10_000

    /// From how many courses an import builds its index beside its writes.
    struct Threshold {
        let from: Int
        /// A test's: the builder starts only once the import waits for it (after the work it
        /// does meanwhile), so anything of the import that read the scratch file before (and
        /// held it to the commit) makes the builder fail every time, not only when it is slow.
        var holdsBuilder = false

        /// `threshold`, on a machine with a core to spare; none on one without.
        static var fromCores: Threshold { Threshold(from: ProcessInfo.processInfo.activeProcessorCount > 1 ? threshold : .max) }
    }

    /// The file the index is built in, attached to the import's connection.
    struct Place: Sendable {
        static let schema = "edugo_side_index"
        let file: URL
        /// `Threshold.holdsBuilder`.
        var holdsBuilder = false

        /// A new file beside the database of `db` (on the disk that will hold the index anyway;
        /// a temporary folder may be memory), attached; outside a transaction.
        static func attach(to db: Database, holdingBuilder: Bool = false) throws -> Place {
            let attached = try Row.fetchAll(db, sql: "PRAGMA database_list")
            // One left attached by an import whose detach failed would refuse the name.
            if attached.contains(where: { ($0["name"] as String?) == schema }) { try db.execute(sql: "DETACH DATABASE \(schema)") }
            let path: String = attached.first { ($0["name"] as String?) == "main" }?["file"] ?? ""
            let folder = path.isEmpty ? FileManager.default.temporaryDirectory : URL(fileURLWithPath: path).deletingLastPathComponent()
            sweep(folder)
            let place = Place(file: folder.appendingPathComponent("\(prefix)\(UUID().uuidString).sqlite"), holdsBuilder: holdingBuilder)
            // Made before SQLite opens it, readable by its owner only, as the database is.
            guard FileManager.default.createFile(atPath: place.file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteNoPermission)
            }
            do {
                try db.execute(sql: "ATTACH DATABASE ? AS \(schema)", arguments: [place.file.path])
            } catch {
                try? FileManager.default.removeItem(at: place.file)
                throw error
            }
            return place
        }

        private static let prefix = ".edugo-search-index-"

        /// Removes what an import ended without its cleanup (killed, the machine stopped) left:
        /// files of a day ago or more, so never the file of an import running now elsewhere.
        private static func sweep(_ folder: URL) {
            let manager = FileManager.default
            guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return }
            for name in names where name.hasPrefix(prefix) {
                let path = folder.appendingPathComponent(name).path
                guard let modified = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                    modified < Date(timeIntervalSinceNow: -86_400)
                else { continue }
                try? manager.removeItem(atPath: path)
            }
        }

        /// Detached and gone; outside a transaction.
        func detach(from db: Database) {
            try? db.execute(sql: "DETACH DATABASE \(Self.schema)")
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: file.path + suffix)
            }
        }
    }

    private let place: Place
    private let finished = DispatchGroup()
    /// Lets a held builder start (`Place.holdsBuilder`).
    private let released = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Result<Void, any Error>?>(nil)
    /// Courses filled so far, where the bar starts when the import begins to wait (`finish`).
    private let indexed = Atomic<Int>(0)
    /// The import's progress while it waits (`finish`): the builder tells it its count
    /// itself, so the bar moves while the import builds its order indexes meanwhile.
    private let watcher = Mutex<ImportProgress?>(nil)
    private let cancelled = Atomic<Bool>(false)
    let count: Int

    /// Starts filling the index in `place`'s file, on a thread of its own: the file's
    /// courses (`entries`, their `keys` and `ranks`, the seats `held` here), then `stored`,
    /// the stored courses the file leaves.
    private init(entries: [CourseEntry], keys: [CourseKeys], ranks: [Int64], held: [String: Int], stored: [Entry], at place: Place) {
        count = entries.count + stored.count
        self.place = place
        finished.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var all = stored
            all.reserveCapacity(count)
            for (index, entry) in entries.enumerated() {
                let course = entry.course
                // A stored course the file names keeps the seats its learners hold (`CourseRow.upsert`).
                let enrolled = max(course.enrolledCount, held[course.id.rawValue] ?? 0)
                all.append(
                    Entry(
                        rank: ranks[index], searchKey: keys[index].searchKey,
                        facets: Self.facets(
                            categoryKey: keys[index].categoryKey, level: course.level.rawValue, priceMinor: course.price.minorUnits,
                            isActive: course.isActive, capacity: course.capacity, enrolled: enrolled)))
            }
            all.sort { $0.rank < $1.rank }
            let result = Result { try fill(all) }
            outcome.withLock { $0 = result }
            finished.leave()
        }
    }

    /// The index of a bulk import built in `place` beside it; nil when the file names a course
    /// twice (the transaction fills the index). `places` has every stored course's rank after
    /// the import.
    static func start(for entries: [CourseEntry], keys: [CourseKeys], places: BulkPlaces, at place: Place, in db: Database) throws
        -> SideIndex?
    {
        guard !places.repeated else { return nil }
        var held: [String: Int] = [:]
        let counted = try Row.fetchCursor(
            db, sql: "SELECT course_id, count(*) FROM enrollment WHERE status != 'dropped' GROUP BY course_id")
        while let row = try counted.next() { held[row[0]] = row[1] }
        var stored: [Entry] = []
        if !places.otherRanks.isEmpty {
            stored.reserveCapacity(places.otherRanks.count)
            let rows = try Row.fetchCursor(db, sql: "SELECT id, search_key, search_facets FROM course")
            while let row = try rows.next() {
                guard let rank = places.otherRanks[row[0]] else { continue }
                stored.append(Entry(rank: rank, searchKey: row[1] ?? "", facets: row[2] ?? ""))
            }
        }
        return SideIndex(entries: entries, keys: keys, ranks: places.ranks, held: held, stored: stored, at: place)
    }

    /// `search_facets` as v9's generated column makes it from a row (Migrations+V9).
    static func facets(categoryKey: String, level: String, priceMinor: Int, isActive: Bool, capacity: Int?, enrolled: Int) -> String {
        var text = "_cat\(categoryKey) _lvl\(level)"
        if priceMinor == 0 { text += " _isfree" }
        if isActive, capacity.map({ enrolled < $0 }) ?? true, enrolled < CourseLimits.seats.upperBound { text += " _isavail" }
        return text
    }

    /// Builds the index in its own file, one segment (see `CatalogOrder.fillHashSize`).
    private func fill(_ entries: [Entry]) throws {
        if place.holdsBuilder { released.wait() }
        if cancelled.load(ordering: .relaxed) { throw CancellationError() }
        // The import touches the file only once this fill has ended (`finish`); should anything
        // hold it meanwhile, the commit waits up to 10 s, then fails, and the import fills the
        // index itself (never both waiting on each other).
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: place.file.path, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            // A scratch file: nothing to recover if the machine stops.
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            try db.execute(sql: CatalogOrder.createSearchTable(.v9))
            try db.execute(sql: "INSERT INTO course_search (course_search, rank) VALUES ('hashsize', \(CatalogOrder.fillHashSize))")
            try db.inTransaction {
                let insert = try db.makeStatement(sql: "INSERT INTO course_search (rowid, search_key, search_facets) VALUES (?, ?, ?)")
                for (index, entry) in entries.enumerated() {
                    if index % 1_024 == 0 {
                        if cancelled.load(ordering: .relaxed) { throw CancellationError() }
                        indexed.store(index, ordering: .relaxed)
                        watcher.withLock { $0 }?.advance(to: index)
                    }
                    try insert.execute(arguments: [entry.rank, entry.searchKey, entry.facets])
                }
                try db.execute(sql: "INSERT INTO course_search (course_search) VALUES ('optimize')")
                return .commit
            }
        }
    }

    /// Waits for the fill to end, telling `progress` how many courses the index holds; whether
    /// it was built (false: its file could not be written, and the caller fills the index
    /// itself). Called before anything of the import's reads the attached file: a read there
    /// holds it until the import commits, and the fill could not commit. `meanwhile`: the
    /// import's own work, done first while the fill goes on (it must not read that file).
    func finish(progress: ImportProgress?, meanwhile: () throws -> Void = {}) throws -> Bool {
        progress?.begin(.indexing, total: count)
        progress?.advance(to: indexed.load(ordering: .relaxed))
        watcher.withLock { $0 = progress }
        defer { watcher.withLock { $0 = nil } }
        try meanwhile()
        // A held builder starts after `meanwhile`, so a read of its file there fails it every time.
        if place.holdsBuilder { released.signal() }
        // The builder moves the bar itself meanwhile (`watcher`).
        finished.wait()
        guard case .success = outcome.withLock({ $0 }) else { return false }
        progress?.advance(to: count)
        return true
    }

    /// Puts the built index in place of `course_search` in `db`'s transaction, once `finish`
    /// said it was built (the search triggers must be dropped).
    func copy(into db: Database) throws {
        try db.execute(sql: "DROP TABLE main.course_search")
        try db.execute(sql: CatalogOrder.createSearchTable(.v9))
        // A new index holds its (empty) structure and totals: replaced by the built ones.
        let side = Place.schema
        try db.execute(
            sql: """
                DELETE FROM main.course_search_data;
                INSERT INTO main.course_search_data (id, block) SELECT id, block FROM \(side).course_search_data;
                INSERT INTO main.course_search_docsize (id, sz) SELECT id, sz FROM \(side).course_search_docsize;
                INSERT INTO main.course_search_idx (segid, term, pgno) SELECT segid, term, pgno FROM \(side).course_search_idx;
                INSERT INTO main.course_search (course_search, rank) VALUES ('hashsize', \(CatalogOrder.defaultHashSize));
                """)
    }

    /// Stops the fill if it still runs and waits for it: the import failed, or gave up.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        if place.holdsBuilder { released.signal() }
        finished.wait()
    }
}
