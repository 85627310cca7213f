import Foundation
import GRDB
import SharedKernel

/// Favourites in SQLite, one row per learner and course.
public struct SQLiteFavouritesRepository: FavouritesRepository {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func setFavourite(_ isFavourite: Bool, userID: UserID, courseID: CourseID) async throws(AppError) {
        let now = Date()
        try await database.write { db in
            try CourseRow.requireExisting(courseID, in: db)
            try Self.set(isFavourite, userID: userID, courseID: courseID, at: now, in: db)
            try MergeTimes.stampNow(.favourite(courseID, isFavourite: isFavourite), userID: userID, at: now, in: db)
        }
    }

    /// `setFavourite`'s work inside a write transaction (an operation's, too), on a course
    /// the caller found.
    static func set(_ isFavourite: Bool, userID: UserID, courseID: CourseID, at now: Date, in db: Database) throws {
        if isFavourite {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO favourite (user_id, course_id, created_at) VALUES (?, ?, ?)").execute(
                arguments: [userID.rawValue, courseID.rawValue, now]
            )
        } else {
            try db.cachedStatement(sql: "DELETE FROM favourite WHERE user_id = ? AND course_id = ?").execute(arguments: [
                userID.rawValue, courseID.rawValue,
            ]
            )
        }
        if db.changesCount > 0 { try ChangeRows.record(.favourite(userID, courseID), in: db) }
    }

    public func favourites(userID: UserID) async throws(AppError) -> [Course] {
        try await database.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(CourseRow.columns) FROM favourite JOIN course ON course.id = favourite.course_id
                        WHERE favourite.user_id = ?
                        ORDER BY course.sort_key, course.id
                        """),
                arguments: [userID.rawValue]
            )
            .compactMap { try? CourseRow.course(from: $0) }  // a damaged course is left out, not fatal
        }
    }

    public func favourites(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [Course] {
        guard !ids.isEmpty else { return [] }
        let among = Array(Set(ids.map(\.rawValue)))
        return try await database.read { db in
            try Row.fetchAll(
                // The ids as one JSON argument: one statement for any number of them.
                db.cachedStatement(
                    sql: """
                        SELECT \(CourseRow.columns) FROM favourite JOIN course ON course.id = favourite.course_id
                        WHERE favourite.user_id = ? AND favourite.course_id IN (SELECT value FROM json_each(?))
                        ORDER BY course.sort_key, course.id
                        """),
                arguments: [userID.rawValue, try StoredTags.encode(among)]
            )
            .compactMap { try? CourseRow.course(from: $0) }  // a damaged course is left out, not fatal
        }
    }

    public func favourite(userID: UserID, courseID: CourseID) async throws(AppError) -> Course? {
        try await database.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT \(CourseRow.columns) FROM favourite JOIN course ON course.id = favourite.course_id
                        WHERE favourite.user_id = ? AND favourite.course_id = ?
                        """),
                arguments: [userID.rawValue, courseID.rawValue]
            ).map(CourseRow.course(from:))
        }
    }
}
