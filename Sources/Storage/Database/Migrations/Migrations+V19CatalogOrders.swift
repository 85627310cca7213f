import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v19-catalog-orders`: the catalog's other orders (`s`): price, duration, level and newest
    /// each walk an index of (value, rank), as title order walks the rank. Newest is the order
    /// courses were added in: rows from before it keep the order they were inserted in.
    static func v19CatalogOrders(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE course ADD COLUMN added_seq INTEGER;
                UPDATE course SET added_seq = rowid;
                ALTER TABLE course ADD COLUMN level_rank INTEGER GENERATED ALWAYS AS (
                    CASE level WHEN 'beginner' THEN 0 WHEN 'intermediate' THEN 1 ELSE 2 END) VIRTUAL;
                CREATE INDEX course_by_price ON course(price_minor, sort_rank);
                CREATE INDEX course_by_duration ON course(duration_minutes, sort_rank);
                CREATE INDEX course_by_level ON course(level_rank, sort_rank);
                CREATE INDEX course_by_added ON course(added_seq, sort_rank);
                """)
    }
}
