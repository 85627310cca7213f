import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v5-catalog-order-and-full-text-search`: the catalog's rank and its full-text index.
    static func v5CatalogOrderAndFullTextSearch(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE course ADD COLUMN sort_rank INTEGER")
        try db.execute(sql: "CREATE INDEX course_by_rank ON course(sort_rank)")
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE course_search USING fts5(
                    title, instructor, tags,
                    content = 'course', content_rowid = 'sort_rank',
                    tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3'
                )
                """)
        try CatalogOrder.renumber(db, layout: .v6)
    }
}
