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

    public init(_ courses: [Course]) {
        rows = BruteForceSearch.catalogOrder(courses).enumerated().map { CatalogRow(key: CatalogKey(Int64($0 + 1)), course: $1) }
        subjects = rows.map { CatalogQuery.Subject($0.course) }
    }

    public func matches(_ query: CatalogQuery, marks: (Course) -> CourseMarks = { _ in CourseMarks() }) -> [CatalogRow] {
        if query.isEverything { return rows }
        return zip(rows, subjects).filter { query.matches($1, marks: marks($1.course)) }.map(\.0)
    }

    public func page(
        _ query: CatalogQuery,
        at position: CatalogPosition,
        limit: Int,
        marks: (Course) -> CourseMarks = { _ in CourseMarks() }
    ) -> [CatalogRow] {
        let rows = matches(query, marks: marks)
        switch position {
        case .first: return Array(rows.prefix(limit))
        case .last: return Array(rows.suffix(limit))
        case .after(let key): return Array(rows.filter { $0.key > key }.prefix(limit))
        case .before(let key): return Array(rows.filter { $0.key < key }.suffix(limit))
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
