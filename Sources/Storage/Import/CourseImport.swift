import Foundation
import GRDB
import Platform
import SharedKernel

/// What an import did.
public struct CourseImportSummary: Equatable, Sendable {
    public let added: Int
    public let updated: Int

    public init(added: Int, updated: Int) {
        self.added = added
        self.updated = updated
    }
}

/// Why an import changed nothing.
public enum CourseImportError: Error, Equatable, Sendable, CustomStringConvertible {
    case badFile(CourseFileError)
    case storage(reason: String)

    public var description: String { text.english }

    /// What went wrong, to be written in a language.
    public var text: LocalizedText {
        switch self {
        case .badFile(let problem): problem.text
        case .storage(let reason): "the database refused the import: \(reason)"
        }
    }
}

extension AppDatabase {
    /// Adds or updates every course of a course JSON file in one IMMEDIATE transaction: the
    /// whole file is stored, or, on the first problem, nothing. Prerequisites may name courses
    /// of the file or courses already stored. `progress` is told each step (the reading is
    /// the caller's to begin; its count is told here).
    public func importCourses(from data: Data, progress: ImportProgress? = nil) throws(CourseImportError) -> CourseImportSummary {
        let file: CourseFile
        do {
            file = try CourseJSON.parse(data)
        } catch {
            throw .badFile(error)
        }
        progress?.advance(to: file.entries.count)
        return try write(file, progress: progress)
    }

    /// Adds or updates courses already in memory (e.g. a generated catalog), by the same
    /// rules as a file: one transaction, prerequisites checked, all or nothing.
    public func importCourses(_ courses: [Course], progress: ImportProgress? = nil) throws(CourseImportError) -> CourseImportSummary {
        try importCourses(entries: courses.map { CourseEntry(course: $0) }, progress: progress)
    }

    /// `importCourses(_:progress:)` with the search index built beside the writes from
    /// `sideIndexFrom` courses on (`SideIndex`): a test's, to take that way with few. The
    /// builder is held until the import waits for it, after the order indexes
    /// (`Threshold.holdsBuilder`).
    func importCourses(_ courses: [Course], progress: ImportProgress? = nil, sideIndexFrom: Int) throws(CourseImportError)
        -> CourseImportSummary
    {
        try write(
            CourseFile(entries: courses.map { CourseEntry(course: $0) }), progress: progress,
            sideIndexFrom: SideIndex.Threshold(from: sideIndexFrom, holdsBuilder: true))
    }

    /// Adds or updates the courses of a file already read (`CourseJSON.parse`).
    public func importCourses(_ file: CourseFile, progress: ImportProgress? = nil) throws(CourseImportError) -> CourseImportSummary {
        try write(file, progress: progress)
    }

    /// Adds or updates courses with their lessons, by the same rules as a file.
    public func importCourses(entries: [CourseEntry], progress: ImportProgress? = nil) throws(CourseImportError) -> CourseImportSummary {
        try write(CourseFile(entries: entries), progress: progress)
    }

    /// One transaction that holds the write lock from its start; another process holding it is
    /// waited for (the busy timeout, then again), so an import never fails for someone else's write.
    private func write(_ file: CourseFile, progress: ImportProgress?, sideIndexFrom: SideIndex.Threshold = .fromCores)
        throws(CourseImportError) -> CourseImportSummary
    {
        while true {
            do {
                return try writer.writeWithoutTransaction { db in
                    var summary = CourseImportSummary(added: 0, updated: 0)
                    // Where the search index may be built beside the writes: attached before
                    // the transaction, as SQLite requires, and gone after it.
                    // A file that cannot be made there leaves the index to the transaction.
                    let side =
                        file.entries.count >= sideIndexFrom.from
                        ? try? SideIndex.Place.attach(to: db, holdingBuilder: sideIndexFrom.holdsBuilder) : nil
                    defer { side?.detach(from: db) }
                    // BEGIN IMMEDIATE takes the write lock of every attached file, and the
                    // index's builder could not write its own: with one attached, the
                    // transaction's first statement takes the main database's alone.
                    try db.inTransaction(side == nil ? .immediate : .deferred) {
                        if side != nil { try db.execute(sql: "DELETE FROM main.catalog_size WHERE 0") }
                        try file.checkPrerequisites(stored: try Self.storedIDs(among: file.outsidePrerequisites, in: db))
                        let prerequisite = try db.cachedStatement(sql: "SELECT prerequisite_id FROM course WHERE id = ?")
                        try file.checkCycles { id in
                            try String.fetchOne(prerequisite, arguments: [id.rawValue]).map { CourseID($0) }
                        }
                        summary = try Self.store(file.entries, in: db, progress: progress, side: side)
                        progress?.begin(.finishing)
                        return .commit
                    }
                    return summary
                }
            } catch let problem as CourseFileError {
                throw .badFile(problem)
            } catch let error as DatabaseError where Self.isBusy(error) {
                continue
            } catch {
                throw .storage(reason: Self.reason(error))
            }
        }
    }

    /// Adds or updates courses inside the caller's transaction. A few are placed in the
    /// catalog order one by one (one with no room left between its neighbours renumbers the
    /// whole order). Many at once are placed in memory with the whole catalog (`BulkPlaces`)
    /// and written at their final ranks, then the search index is filled in one pass (or, from
    /// `SideIndex.threshold` courses, built on another core while they are written).
    /// `side`: where a bulk import builds its search index beside the writes (`SideIndex`).
    static func store(
        _ entries: [CourseEntry], in db: Database, progress: ImportProgress? = nil, side: SideIndex.Place? = nil
    ) throws -> CourseImportSummary {
        progress?.begin(.ordering)
        let stored = try Int.fetchOne(db, sql: "SELECT courses FROM catalog_size WHERE id = 1") ?? 0
        let bulk = entries.count > max(1_000, stored / 10)
        var added = 0
        let firstSeq = (try Int64.fetchOne(db, sql: "SELECT max(added_seq) FROM course") ?? 0) + 1
        let keys = CourseKeyFolding.keys(of: entries)
        // Written in the file's order (commonly the ids' order, which the id's index takes
        // fastest), each at its final rank when many come at once.
        func write(_ placement: (Int) -> CourseRow.Placement) throws -> Bool {
            var renumber = false
            progress?.begin(.writing, total: entries.count)
            let writer = try CourseRowWriter(in: db)
            for index in entries.indices {
                if index % 1_024 == 0 { progress?.advance(to: index) }
                let outcome = try CourseRow.upsert(
                    entries[index], keys: keys[index], placement: placement(index), addedSeq: firstSeq + Int64(index),
                    with: writer, in: db)
                if outcome.added { added += 1 }
                if outcome.needsRenumbering { renumber = true }
            }
            progress?.advance(to: entries.count)
            return renumber
        }
        if bulk {
            try BulkUpkeep.deferred(in: db) { orderIndexes in
                let places = try BulkPlaces(entries: entries, keys: keys, in: db)
                // The search index built on another core while the rows are written.
                let building = try side.flatMap { try SideIndex.start(for: entries, keys: keys, places: places, at: $0, in: db) }
                do {
                    _ = try write { .at(places.ranks[$0], stored: places.stored[$0]) }
                    let move = try db.cachedStatement(sql: "UPDATE course SET sort_rank = ? WHERE id = ?")
                    for (id, rank) in places.moves { try move.execute(arguments: [rank, id]) }
                    // Waited for before the reindexing touches anything (see `finish`); the
                    // order indexes built meanwhile, while the builder ends on the other core.
                    let built = try building.map { try $0.finish(progress: progress) { try orderIndexes.build(in: db) } } ?? false
                    try CatalogOrder.reindex(db, progress: progress, prebuilt: built ? building : nil)
                } catch {
                    building?.cancel()
                    throw error
                }
            }
        } else if try write({ _ in .between }) {
            // No room left between neighbours: the whole order and index again, shown as such.
            try CatalogOrder.renumber(db, progress: progress)
        }
        if !entries.isEmpty { try ChangeRows.record(.catalog, in: db) }
        return CourseImportSummary(added: added, updated: entries.count - added)
    }

    private static func storedIDs(among ids: Set<CourseID>, in db: Database) throws -> Set<CourseID> {
        var stored: Set<CourseID> = []
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM course WHERE id = ?")
        for id in ids where try Bool.fetchOne(statement, arguments: [id.rawValue]) ?? false {
            stored.insert(id)
        }
        return stored
    }
}
