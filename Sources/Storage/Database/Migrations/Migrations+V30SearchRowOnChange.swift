import GRDB

extension Migrations {
    /// `v30-search-row-on-change`: a course's row in the search index is written again only
    /// when what the index holds of it changed, no longer on every seat taken or freed
    /// (`CatalogOrder.searchUpdateTrigger`).
    static func v30SearchRowOnChange(_ db: Database) throws {
        try db.execute(sql: "DROP TRIGGER IF EXISTS main.course_search_update")
        try db.execute(sql: CatalogOrder.searchUpdateTrigger(.v9))
    }
}
