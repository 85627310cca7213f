import Foundation
import GRDB
import SharedKernel

/// Favourites in SQLite, one row per learner and course.
public struct SQLiteFavouritesRepository: FavouritesRepository {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func toggle(userID: UserID, courseID: CourseID) async throws(AppError) -> Bool {
        try await database.write { db in
            guard try CourseRow.fetch(courseID, in: db) != nil else { throw AppError.courseNotFound(courseID) }
            try db.execute(
                sql: "DELETE FROM favourite WHERE user_id = ? AND course_id = ?",
                arguments: [userID.rawValue, courseID.rawValue]
            )
            if db.changesCount > 0 { return false }
            try db.execute(
                sql: "INSERT INTO favourite (user_id, course_id, created_at) VALUES (?, ?, ?)",
                arguments: [userID.rawValue, courseID.rawValue, Date()]
            )
            return true
        }
    }

    public func favourites(userID: UserID) async throws(AppError) -> [Course] {
        try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(CourseRow.columns) FROM favourite JOIN course ON course.id = favourite.course_id
                WHERE favourite.user_id = ?
                ORDER BY course.sort_key, course.id
                """, arguments: [userID.rawValue])
            .map(CourseRow.course(from:))
        }
    }

    public func favouriteIDs(userID: UserID) async throws(AppError) -> Set<CourseID> {
        try await database.read { db in
            Set(try String.fetchAll(db, sql: "SELECT course_id FROM favourite WHERE user_id = ?", arguments: [userID.rawValue])
                .map { CourseID($0) })
        }
    }
}
