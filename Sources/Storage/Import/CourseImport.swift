import Foundation
import GRDB
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

    public var description: String {
        switch self {
        case .badFile(let problem): problem.description
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
        try write(CourseFile(courses: courses, ids: Set(courses.map(\.id))))
    }

    private func write(_ file: CourseFile) throws(CourseImportError) -> CourseImportSummary {
        do {
            return try writer.writeWithoutTransaction { db in
                var summary = CourseImportSummary(added: 0, updated: 0)
                try db.inTransaction(.immediate) {
                    try file.checkPrerequisites(stored: try Self.storedIDs(among: file.outsidePrerequisites, in: db))
                    summary = try Self.store(file.courses, in: db)
                    return .commit
                }
                return summary
            }
        } catch let problem as CourseFileError {
            throw .badFile(problem)
        } catch {
            throw .storage(reason: Self.reason(error))
        }
    }

    /// Adds or updates courses inside the caller's transaction. A few are placed in the
    /// catalog order one by one; many at once, or one with no room left between its
    /// neighbours, renumber the whole order and rebuild the search index in one pass.
    static func store(_ courses: [Course], in db: Database) throws -> CourseImportSummary {
        let stored = try Int.fetchOne(db, sql: "SELECT count(*) FROM course") ?? 0
        let bulk = courses.count > max(1_000, stored / 10)
        var added = 0
        var renumber = bulk
        for course in courses {
            let outcome = try CourseRow.upsert(course, placing: !bulk, in: db)
            if outcome.added { added += 1 }
            if outcome.needsRenumbering { renumber = true }
        }
        if renumber { try CatalogOrder.renumber(db) }
        return CourseImportSummary(added: added, updated: courses.count - added)
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
