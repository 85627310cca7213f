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
        do {
            return try writer.writeWithoutTransaction { db in
                var summary = CourseImportSummary(added: 0, updated: 0)
                try db.inTransaction(.immediate) {
                    try file.checkPrerequisites(stored: try Self.storedIDs(among: file.outsidePrerequisites, in: db))
                    var added = 0
                    for course in file.courses where try CourseRow.upsert(course, in: db) {
                        added += 1
                    }
                    summary = CourseImportSummary(added: added, updated: file.courses.count - added)
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

    private static func storedIDs(among ids: Set<CourseID>, in db: Database) throws -> Set<CourseID> {
        var stored: Set<CourseID> = []
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM course WHERE id = ?")
        for id in ids where try Bool.fetchOne(statement, arguments: [id.rawValue]) ?? false {
            stored.insert(id)
        }
        return stored
    }
}
