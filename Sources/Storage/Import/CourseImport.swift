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
    /// of the file or courses already stored.
    public func importCourses(from data: Data) throws(CourseImportError) -> CourseImportSummary {
        let file: CourseFile
        do {
            file = try CourseJSON.parse(data)
        } catch {
            throw .badFile(error)
        }
        return try write(file)
    }

    /// Adds or updates courses already in memory (e.g. a generated catalog), by the same
    /// rules as a file: one transaction, prerequisites checked, all or nothing.
    public func importCourses(_ courses: [Course]) throws(CourseImportError) -> CourseImportSummary {
        try importCourses(entries: courses.map { CourseEntry(course: $0) })
    }

    /// Adds or updates courses with their lessons, by the same rules as a file.
    public func importCourses(entries: [CourseEntry]) throws(CourseImportError) -> CourseImportSummary {
        try write(CourseFile(entries: entries))
    }

    /// One IMMEDIATE transaction; another process holding the write lock is waited for (the
    /// busy timeout, then again), so an import never fails for someone else's write.
    private func write(_ file: CourseFile) throws(CourseImportError) -> CourseImportSummary {
        while true {
            do {
                return try writer.writeWithoutTransaction { db in
                    var summary = CourseImportSummary(added: 0, updated: 0)
                    try db.inTransaction(.immediate) {
                        try file.checkPrerequisites(stored: try Self.storedIDs(among: file.outsidePrerequisites, in: db))
                        let prerequisite = try db.cachedStatement(sql: "SELECT prerequisite_id FROM course WHERE id = ?")
                        try file.checkCycles { id in
                            try String.fetchOne(prerequisite, arguments: [id.rawValue]).map { CourseID($0) }
                        }
                        summary = try Self.store(file.entries, in: db)
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
    /// catalog order one by one; many at once, or one with no room left between its
    /// neighbours, renumber the whole order and rebuild the search index in one pass. Many
    /// into an empty catalog (a first load) are ordered here and written at their final ranks,
    /// in that order: nothing is renumbered, and the index is filled reading the table in order.
    static func store(_ entries: [CourseEntry], in db: Database) throws -> CourseImportSummary {
        let stored = try Int.fetchOne(db, sql: "SELECT courses FROM catalog_size WHERE id = 1") ?? 0
        let bulk = entries.count > max(1_000, stored / 10)
        // Counted, not taken from `catalog_size`: ranks given here must not meet a stored one.
        let firstLoad = try bulk && !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM course)") ?? true)
        var added = 0
        var renumber = bulk && !firstLoad
        let firstSeq = (try Int64.fetchOne(db, sql: "SELECT max(added_seq) FROM course") ?? 0) + 1
        var folding = CourseKeyFolding()
        let keys = entries.map { folding.keys(of: $0.course) }
        // Written in the file's order (commonly the ids' order, which the id's index takes
        // fastest), each at the rank of its place in the catalog order.
        var ranks: [Int64] = []
        if firstLoad {
            ranks = Array(repeating: 0, count: entries.count)
            for (place, index) in Self.catalogOrder(of: entries, keys: keys).enumerated() {
                ranks[index] = CatalogOrder.rank(atPlace: place)
            }
        }
        let write = {
            for index in entries.indices {
                let placement: CourseRow.Placement = firstLoad ? .at(ranks[index]) : bulk ? .later : .between
                let outcome = try CourseRow.upsert(
                    entries[index], keys: keys[index], placement: placement, addedSeq: firstSeq + Int64(index), in: db)
                if outcome.added { added += 1 }
                if outcome.needsRenumbering { renumber = true }
            }
            if renumber { try CatalogOrder.renumber(db) } else if firstLoad { try CatalogOrder.reindex(db) }
        }
        if bulk { try BulkUpkeep.deferred(in: db, write) } else { try write() }
        if !entries.isEmpty { try ChangeRows.record(.catalog, in: db) }
        return CourseImportSummary(added: added, updated: entries.count - added)
    }

    /// The entries' indices in catalog order, as SQLite orders the rows (`sort_key, id`, each
    /// compared byte by byte).
    static func catalogOrder(of entries: [CourseEntry], keys: [CourseKeys]) -> [Int] {
        entries.indices.sorted { left, right in
            switch Self.compare(keys[left].sortKey, keys[right].sortKey) {
            case ..<0: true
            case 1...: false
            default: Self.compare(entries[left].course.id.rawValue, entries[right].course.id.rawValue) < 0
            }
        }
    }

    /// Byte by byte, as SQLite's BINARY collation compares.
    private static func compare(_ left: String, _ right: String) -> Int {
        var left = left
        var right = right
        return left.withUTF8 { l in
            right.withUTF8 { r in
                let shared = min(l.count, r.count)
                let order = shared == 0 ? 0 : Int(memcmp(l.baseAddress!, r.baseAddress!, shared))
                return order != 0 ? order : l.count - r.count
            }
        }
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
