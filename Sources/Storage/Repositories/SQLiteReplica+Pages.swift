import Foundation
import GRDB
import SharedKernel

/// The catalog page remote mode opened on, as the server gave it: the next start draws its
/// first frame from it while the server is asked again. The pages of the last few openings
/// are kept, each under its query, its order and (for a query of the learner's own) the
/// learner; their courses are the replica's, as every course it keeps.
extension SQLiteReplica {
    /// The openings kept, the newest first.
    static let openingsKept = 4

    private struct KeptRow: Codable {
        let id: String
        /// The server's page key, so the rows after it are asked of the server where it left.
        let key: String
        let added: Int64?
    }

    /// Keeps `page`, the first of `query` as the server gave it.
    public func keep(opening page: CountedPage, of query: CatalogQuery, learner: UserID?) async throws(AppError) {
        let now = now()
        let rows: String
        do {
            let kept = page.rows.map { KeptRow(id: $0.course.id.rawValue, key: $0.key.pageKey, added: $0.added) }
            rows = String(decoding: try JSONEncoder().encode(kept), as: UTF8.self)
        } catch {
            throw .storage(.saving, detail: "an opening page that does not encode: \(error)")
        }
        let (total, lowerBound) =
            switch page.total {
            case .exactly(let count): (count, false)
            case .atLeast(let count): (count, true)
            }
        try await database.write { db in
            try Self.store(page.rows.map(\.course), in: db)
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO replica_page (learner, query, sort, total, total_is_lower_bound, rows, kept_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    Self.learnerKey(query, learner), query.understoodText, query.sort.apiText, total, lowerBound, rows,
                    Int64(now.timeIntervalSince1970 * 1_000),
                ])
            try db.execute(
                sql: """
                    DELETE FROM replica_page WHERE (learner, query, sort) NOT IN (
                        SELECT learner, query, sort FROM replica_page ORDER BY kept_at DESC LIMIT ?)
                    """, arguments: [Self.openingsKept])
        }
    }

    /// The first page of `query` kept, with its total; nil when none is, or a course of it
    /// is no longer here.
    public func opening(_ query: CatalogQuery, learner: UserID?) async throws(AppError) -> CountedPage? {
        try await database.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT total, total_is_lower_bound, rows FROM replica_page WHERE learner = ? AND query = ? AND sort = ?",
                    arguments: [Self.learnerKey(query, learner), query.understoodText, query.sort.apiText]),
                let text = row["rows"] as String?,
                let kept = try? JSONDecoder().decode([KeptRow].self, from: Data(text.utf8)),
                let total = row["total"] as Int?, let lowerBound = row["total_is_lower_bound"] as Bool?
            else { return nil }
            // One statement for the page's courses: the first frame waits for them.
            let courses = try Row.fetchAll(
                db, sql: "SELECT \(CourseRow.columns) FROM course WHERE id IN (SELECT value FROM json_each(?))",
                arguments: [try StoredTags.encode(kept.map(\.id))]
            ).reduce(into: [String: Course]()) { courses, row in
                if let course = try? CourseRow.course(from: row) { courses[course.id.rawValue] = course }
            }
            var rows: [CatalogRow] = []
            for keptRow in kept {
                guard let key = CatalogKey(pageKey: keptRow.key, sort: query.sort), let course = courses[keptRow.id] else { return nil }
                rows.append(CatalogRow(key: key, course: course, added: keptRow.added))
            }
            return CountedPage(rows: rows, total: lowerBound ? .atLeast(total) : .exactly(total))
        }
    }

    /// A query of the learner's own is theirs alone; the rest are everyone's (0).
    private static func learnerKey(_ query: CatalogQuery, _ learner: UserID?) -> Int64 {
        query.dependsOnLearner ? learner?.rawValue ?? 0 : 0
    }
}
