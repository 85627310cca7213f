import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v9-folding-and-filters`: search folds letters without a decomposition (ø→o, ł→l, ß→ss…)
    /// and filters: category, level, free and available are tokens of the index, and the
    /// learner's favourites and enrollments carry their course's rank, so every filter walks an
    /// index in catalog order. The sort key folds the same way, so the order is renumbered.
    static func v9FoldingAndFilters(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE course ADD COLUMN category_key TEXT NOT NULL DEFAULT '';
                ALTER TABLE course ADD COLUMN search_facets TEXT GENERATED ALWAYS AS (
                    '_cat' || category_key || ' _lvl' || level
                    || CASE WHEN price_minor = 0 THEN ' _isfree' ELSE '' END
                    || CASE WHEN active = 1 AND (capacity IS NULL OR enrolled_count < capacity)
                            AND enrolled_count < \(CourseLimits.seats.upperBound) THEN ' _isavail' ELSE '' END
                ) VIRTUAL;
                ALTER TABLE favourite ADD COLUMN course_rank INTEGER;
                ALTER TABLE enrollment ADD COLUMN course_rank INTEGER;
                CREATE INDEX favourite_by_rank ON favourite(user_id, course_rank);
                CREATE INDEX favourite_by_course ON favourite(course_id);
                CREATE INDEX enrollment_by_rank ON enrollment(user_id, course_rank) WHERE status != 'dropped';
                CREATE TRIGGER favourite_gets_rank AFTER INSERT ON favourite BEGIN
                    UPDATE favourite SET course_rank = (SELECT sort_rank FROM course WHERE id = new.course_id)
                    WHERE user_id = new.user_id AND course_id = new.course_id;
                END;
                CREATE TRIGGER enrollment_gets_rank AFTER INSERT ON enrollment BEGIN
                    UPDATE enrollment SET course_rank = (SELECT sort_rank FROM course WHERE id = new.course_id) WHERE id = new.id;
                END;
                DROP TABLE course_search;
                """)
        try db.execute(sql: CatalogOrder.createSearchTable(.v9))
        let update = try db.makeStatement(sql: "UPDATE course SET sort_key = ?, search_key = ?, category_key = ? WHERE id = ?")
        for row in try Row.fetchAll(db, sql: "SELECT id, title, instructor, tags, category FROM course") {
            let tags = (try? JSONSerialization.jsonObject(with: Data((row["tags"] as String? ?? "[]").utf8))) as? [String] ?? []
            let title = row["title"] as String? ?? ""
            try update.execute(arguments: [
                SortKey.make(title),
                SortKey.searchKey(title: title, instructor: row["instructor"] as String? ?? "", tags: tags),
                TextFolding.key(row["category"] as String? ?? ""),
                row["id"] as String? ?? "",
            ])
        }
        try CatalogOrder.renumber(db, layout: .v9)
    }
}
