import SharedKernel

/// The obvious, slow search that the real one must agree with: every word of the query
/// starts a word of the title, the instructor or a tag, ignoring case and accents.
public enum BruteForceSearch {
    /// The courses where every word of `query` starts a word of the title, instructor or a
    /// tag, ignoring case and accents, in catalog order. Blank: all; no letters or digits: none.
    public static func matches(_ courses: [Course], query: String) -> [Course] {
        BruteForceIndex(courses).matches(CatalogQuery.parse(query)).map(\.course)
    }

    /// Sorted by folded title, then id: the catalog's order.
    public static func catalogOrder(_ courses: [Course]) -> [Course] {
        courses.sorted(by: TextFolding.inCatalogOrder)
    }

    public static func words(in text: String) -> [String] {
        TextFolding.words(text)
    }
}

/// The brute-force search's work done once for a catalog: its order and keys, so a test can
/// ask many queries of a large catalog. Matching is `CatalogQuery.matches`, the rules every
/// store's answer must agree with; `marks` says how the asking learner relates to a course.
public struct BruteForceIndex: Sendable {
    public let rows: [CatalogRow]
    private let subjects: [CatalogQuery.Subject]
    /// When each course was added, by position in `courses` unless told: `newest` orders by it.
    private let added: [CourseID: Int64]

    public init(_ courses: [Course], added: [CourseID: Int64]? = nil) {
        let added = added ?? Dictionary(courses.enumerated().map { ($1.id, Int64($0 + 1)) }, uniquingKeysWith: { first, _ in first })
        rows = BruteForceSearch.catalogOrder(courses).enumerated().map {
            CatalogRow(key: CatalogKey(Int64($0 + 1)), course: $1, added: added[$1.id])
        }
        subjects = rows.map { CatalogQuery.Subject($0.course) }
        self.added = added
    }

    /// The matches in the query's order, each keyed for it.
    public func matches(_ query: CatalogQuery, marks: (Course) -> CourseMarks = { _ in CourseMarks() }) -> [CatalogRow] {
        let matched = query.isEverything ? rows : zip(rows, subjects).filter { query.matches($1, marks: marks($1.course)) }.map(\.0)
        guard query.sort != .title else { return matched }
        let keyed = matched.map { row in
            CatalogRow(
                key: CatalogKey(row.key.rawValue, sortValue: query.sort.value(of: row.course, added: added[row.course.id] ?? 0)),
                course: row.course, added: row.added)
        }
        return query.sort.descending ? keyed.sorted { $0.key > $1.key } : keyed.sorted { $0.key < $1.key }
    }

    public func page(
        _ query: CatalogQuery,
        at position: CatalogPosition,
        limit: Int,
        marks: (Course) -> CourseMarks = { _ in CourseMarks() }
    ) -> [CatalogRow] {
        let rows = matches(query, marks: marks)
        // In the order's direction: a descending order's later rows have smaller keys.
        let descending = query.sort.descending
        switch position {
        case .first: return Array(rows.prefix(limit))
        case .last: return Array(rows.suffix(limit))
        case .after(let key): return Array(rows.filter { descending ? $0.key < key : $0.key > key }.prefix(limit))
        case .before(let key): return Array(rows.filter { descending ? $0.key > key : $0.key < key }.suffix(limit))
        }
    }
}

extension CourseRepository {
    /// A page for what a person would type, as the search field parses it.
    public func page(matching text: String, for learner: UserID? = nil, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> [CatalogRow]
    {
        try await page(CatalogQuery.parse(text), for: learner, at: position, limit: limit)
    }

    public func count(matching text: String, for learner: UserID? = nil) async throws(AppError) -> CatalogCount {
        try await count(CatalogQuery.parse(text), for: learner)
    }
}

extension BruteForceIndex {
    /// The matches of what a person would type, for nobody in particular.
    public func matches(_ text: String) -> [CatalogRow] {
        matches(CatalogQuery.parse(text))
    }
}
