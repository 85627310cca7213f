import SharedKernel

/// A catalog query as SQLite answers it: the FTS5 expression for its words and the filters
/// the index holds as facets, and what is left to check against the learner's own rows.
struct FullTextQuery {
    /// `search_key : "w"*` for each word, `search_facets : …` for each filter the index
    /// holds; nil when nothing is searched in the index.
    let match: String?
    /// Which of the learner's lists to walk (their ranks are indexed), if any.
    let mine: Mine?
    /// `is:open` beyond the `_isavail` facet: prerequisite completed, not enrolled.
    let openForLearner: Bool

    enum Mine {
        case favourites
        case enrollments
        /// Both: walk the favourites, keep those enrolled.
        case both
    }

    init(_ query: CatalogQuery) {
        // Words are runs of folded letters and digits, quoted: no FTS5 syntax (quotes, `*`,
        // `-`, parentheses, column names) can reach the engine.
        var terms = query.words.map { "search_key : \"\($0)\"*" }
        if let category = query.category { terms.append("search_facets : \"_cat\(category)\"*") }
        if let level = query.level { terms.append("search_facets : \"_lvl\(level.rawValue)\"") }
        if query.isFree { terms.append("search_facets : \"_isfree\"") }
        if query.isOpen { terms.append("search_facets : \"_isavail\"") }
        match = terms.isEmpty ? nil : terms.joined(separator: " AND ")
        switch (query.isFavourite, query.isEnrolled) {
        case (true, true): mine = .both
        case (true, false): mine = .favourites
        case (false, true): mine = .enrollments
        case (false, false): mine = nil
        }
        openForLearner = query.isOpen
    }
}
