import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v11-catalog-size`: the size of the catalog, kept by triggers: counting a million rows
    /// for every blank catalog page cost 5.5 ms, most of a server's time per page.
    static func v11CatalogSize(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE catalog_size (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    courses INTEGER NOT NULL
                );
                INSERT INTO catalog_size (id, courses) SELECT 1, count(*) FROM course;
                CREATE TRIGGER catalog_size_after_insert AFTER INSERT ON course BEGIN
                    UPDATE catalog_size SET courses = courses + 1 WHERE id = 1;
                END;
                CREATE TRIGGER catalog_size_after_delete AFTER DELETE ON course BEGIN
                    UPDATE catalog_size SET courses = courses - 1 WHERE id = 1;
                END;
                """)
    }
}
