import SharedKernel

/// The obvious, slow search that the real one must agree with: every word of the query
/// starts a word of the title, the instructor or a tag, ignoring case and accents.
public enum BruteForceSearch {
    /// The courses where every word of `query` starts a word of the title, instructor or a
    /// tag, ignoring case and accents, in catalog order. Blank: all; no letters or digits: none.
    public static func matches(_ courses: [Course], query: String) -> [Course] {
        BruteForceIndex(courses).matches(query).map(\.course)
    }

    /// A page of `matches`, keyed by position in the whole catalog order (from 1).
    public static func page(_ courses: [Course], query: String, at position: CatalogPosition, limit: Int) -> [CatalogRow] {
        BruteForceIndex(courses).page(query, at: position, limit: limit)
    }

    /// Sorted by folded title, then id: the catalog's order.
    public static func catalogOrder(_ courses: [Course]) -> [Course] {
        courses.sorted(by: TextFolding.inCatalogOrder)
    }

    public static func words(in text: String) -> [String] {
        TextFolding.fold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }
}

/// The brute-force search's work done once for a catalog: its order, keys and words, so a
/// test can ask many queries of a large catalog.
public struct BruteForceIndex: Sendable {
    public let rows: [CatalogRow]
    private let words: [[String]]

    public init(_ courses: [Course]) {
        rows = BruteForceSearch.catalogOrder(courses).enumerated().map { CatalogRow(key: CatalogKey(Int64($0 + 1)), course: $1) }
        words = rows.map { row in
            ([row.course.title, row.course.instructor] + row.course.tags).flatMap(BruteForceSearch.words(in:))
        }
    }

    public func matches(_ query: String) -> [CatalogRow] {
        if query.allSatisfy(\.isWhitespace) { return rows }
        let wanted = BruteForceSearch.words(in: query)
        guard !wanted.isEmpty else { return [] }
        return zip(rows, words).filter { _, words in
            wanted.allSatisfy { word in words.contains { $0.hasPrefix(word) } }
        }.map(\.0)
    }

    public func page(_ query: String, at position: CatalogPosition, limit: Int) -> [CatalogRow] {
        let rows = matches(query)
        switch position {
        case .first: return Array(rows.prefix(limit))
        case .last: return Array(rows.suffix(limit))
        case .after(let key): return Array(rows.filter { $0.key > key }.prefix(limit))
        case .before(let key): return Array(rows.filter { $0.key < key }.suffix(limit))
        }
    }
}
