import GRDB

extension Migrations {
    /// `v29-search-terms`: the search index's terms as a table (`course_search_terms`, FTS5's
    /// own `fts5vocab`, nothing stored), so a word past the index's longest prefix is asked
    /// by the terms it begins (`PrefixTerms`).
    static func v29SearchTerms(_ db: Database) throws {
        try db.execute(sql: "CREATE VIRTUAL TABLE course_search_terms USING fts5vocab(course_search, 'row')")
    }
}
