import Foundation
import SharedKernel

/// A `CourseRepository` double that records every call and answers from a canned catalog
/// or a canned error; with a gate, calls wait until the test opens it.
public actor CourseRepositorySpy: CourseRepository {
    public enum Message: Equatable, Sendable {
        case page(String, CatalogPosition, Int)
        case count(String)
        case course(CourseID)
    }

    public private(set) var messages: [Message] = []

    /// How many pages were asked for (counts run beside them in any order).
    public var pageRequests: Int {
        messages.count { if case .page = $0 { true } else { false } }
    }
    private var result: Result<[Course], AppError>
    private var gate: Gate?

    public init(result: Result<[Course], AppError>, gate: Gate? = nil) {
        self.result = result
        self.gate = gate
    }

    public static func success(_ courses: [Course], gate: Gate? = nil) -> CourseRepositorySpy {
        CourseRepositorySpy(result: .success(courses), gate: gate)
    }

    public static var offline: CourseRepositorySpy {
        CourseRepositorySpy(result: .failure(.connectivity))
    }

    /// Holds later calls at `gate` until the test opens it.
    public func setGate(_ gate: Gate?) {
        self.gate = gate
    }

    public func setResult(_ result: Result<[Course], AppError>) {
        self.result = result
    }

    public func page(matching query: String, at position: CatalogPosition, limit: Int) async throws(AppError) -> [CatalogRow] {
        messages.append(.page(query, position, limit))
        await gate?.wait()
        return BruteForceSearch.page(try result.get(), query: query, at: position, limit: limit)
    }

    public func count(matching query: String) async throws(AppError) -> CatalogCount {
        messages.append(.count(query))
        await gate?.wait()
        return .exactly(BruteForceSearch.matches(try result.get(), query: query).count)
    }

    public func course(id: CourseID) async throws(AppError) -> Course {
        messages.append(.course(id))
        await gate?.wait()
        let courses = try result.get()
        guard let course = courses.first(where: { $0.id == id }) else { throw .courseNotFound(id) }
        return course
    }
}

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
        courses.map { (key: fold($0.title), course: $0) }
            .sorted { ($0.key, $0.course.id.rawValue) < ($1.key, $1.course.id.rawValue) }
            .map(\.course)
    }

    public static func words(in text: String) -> [String] {
        fold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
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
