import GRDB
import SharedKernel

/// A catalog query as SQLite answers it: the FTS5 expression for its words and the filters
/// the index holds as facets, and what is left to check against the learner's own rows.
struct FullTextQuery {
    /// `search_key : "w"*` for each word (or the terms it begins, `PrefixTerms`),
    /// `search_facets : …` for each filter the index holds; nil when nothing is searched in
    /// the index.
    private(set) var match: String?
    /// The filters' own terms in `match`, each as the index matches it.
    let facetTerms: [String]
    /// Whether the filters are checked on each course's row too (`driven(by:)`).
    private(set) var checksFiltersOnRows = false
    /// Which of the learner's lists to walk (their ranks are indexed), if any.
    let mine: Mine?
    /// `is:open` beyond the `_isavail` facet: prerequisite completed, not enrolled.
    let openForLearner: Bool
    /// The filters as conditions on the course's row, when no word is searched: a walk of an
    /// order's index checks them row by row, with no set of matches to build first.
    let facetConditions: (sql: [String], arguments: StatementArguments)?
    private let query: CatalogQuery

    enum Mine {
        case favourites
        case enrollments
        /// Both: walk the favourites, keep those enrolled.
        case both
    }

    /// `terms`: for a prefix of `prefixes(of: query)`, the index's terms it begins
    /// (`PrefixTerms`), asked instead of the prefix.
    init(_ query: CatalogQuery, terms: [String: [String]] = [:]) {
        // Words are runs of folded letters and digits, quoted: no FTS5 syntax (quotes, `*`,
        // `-`, parentheses, column names) can reach the engine.
        func asked(_ column: String, _ prefix: String) -> String {
            guard let exact = terms[prefix] else { return "\(column) : \"\(prefix)\"*" }
            // No term begins with it: the prefix as a term, which no course has, matches none.
            let alternatives = (exact.isEmpty ? [prefix] : exact).map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }
            return "\(column) : (\(alternatives.joined(separator: " OR ")))"
        }
        var facets: [String] = []
        if let category = query.category { facets.append(asked("search_facets", "_cat\(category)")) }
        if let level = query.level { facets.append("search_facets : \"_lvl\(level.rawValue)\"") }
        if query.isFree { facets.append("search_facets : \"_isfree\"") }
        if query.isOpen { facets.append("search_facets : \"_isavail\"") }
        let all = query.words.map { asked("search_key", $0) } + facets
        match = all.isEmpty ? nil : all.joined(separator: " AND ")
        facetTerms = facets
        switch (query.isFavourite, query.isEnrolled) {
        case (true, true): mine = .both
        case (true, false): mine = .favourites
        case (false, true): mine = .enrollments
        case (false, false): mine = nil
        }
        openForLearner = query.isOpen
        self.query = query
        if query.words.isEmpty, match != nil {
            var sql: [String] = []
            var arguments = StatementArguments()
            if let category = query.category {
                sql.append("substr(course.category_key, 1, length(?)) = ?")
                _ = arguments.append(contentsOf: [category, category])
            }
            if let level = query.level {
                sql.append("course.level = ?")
                _ = arguments.append(contentsOf: [level.rawValue])
            }
            if query.isFree { sql.append("course.price_minor = 0") }
            if query.isOpen {
                // The `_isavail` facet's own condition.
                sql.append(
                    "course.active = 1 AND (course.capacity IS NULL OR course.enrolled_count < course.capacity) "
                        + "AND course.enrolled_count < \(CourseLimits.seats.upperBound)")
            }
            facetConditions = (sql, arguments)
        } else {
            facetConditions = nil
        }
    }

    /// Filters alone, two or more: the index is asked for `term`'s matches only, and every
    /// filter is checked on each match's row. Asked for all of them, FTS5 steps through each
    /// filter's matches together: at 1 M, 75 free courses took a seek each into the third of
    /// the catalog at the level asked (0.4-0.6 ms a page, against 0.15 reading the free ones'
    /// rows). The caller picks the rarest (`TermCounts`).
    func driven(by term: String) -> FullTextQuery {
        guard facetConditions != nil, facetTerms.contains(term) else { return self }
        var driven = self
        driven.match = term
        driven.checksFiltersOnRows = true
        return driven
    }

    /// What `query` asks the index as prefixes: its words, and its category's facet.
    static func prefixes(of query: CatalogQuery) -> [String] {
        query.words + (query.category.map { ["_cat\($0)"] } ?? [])
    }

    /// The value `sort`'s field has in every match, when a filter fixes it.
    func fixedValue(for sort: CatalogSort) -> Int64? {
        query.fixedValue(of: sort.field)
    }
}
