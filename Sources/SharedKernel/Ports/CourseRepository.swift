/// Reads the course catalog.
public protocol CourseRepository: Sendable {
    /// Up to `limit` courses next to `position` in catalog order (folded title, then id),
    /// first to last, that match `query` (`CatalogQuery.matches`: its words and filters, the
    /// learner's own filters for `learner`). Never reads more than the page.
    func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError) -> [CatalogRow]
    /// How many courses match `query` (all of them for a blank one); a large count of
    /// matches may be given as a lower bound, so counting stays cheap.
    func count(_ query: CatalogQuery, for learner: UserID?) async throws(AppError) -> CatalogCount
    /// `page` and `count` at once, as the API answers them: a store that can read both in one
    /// go does (one transaction, one trip), the rest get this from the two calls.
    func countedPage(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> CountedPage
    /// One course; `.courseNotFound` when there is none with that id.
    func course(id: CourseID) async throws(AppError) -> Course
    /// One course with its lessons, for its page; `.courseNotFound` when there is none.
    func syllabus(of id: CourseID) async throws(AppError) -> Syllabus
}

extension CourseRepository {
    public func countedPage(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> CountedPage
    {
        CountedPage(rows: try await page(query, for: learner, at: position, limit: limit), total: try await count(query, for: learner))
    }
}

/// A page of the catalog with the count of everything its query matches.
public struct CountedPage: Hashable, Sendable {
    public var rows: [CatalogRow]
    public var total: CatalogCount

    public init(rows: [CatalogRow], total: CatalogCount) {
        self.rows = rows
        self.total = total
    }
}

/// A course's place in a catalog order: its title rank, and for an order other than title's
/// the value it is sorted by first (`CatalogSort.value`). Compare keys of one order to compare
/// places. Opaque otherwise.
public struct CatalogKey: Hashable, Comparable, Sendable {
    /// The course's place in title order (unique).
    public let rawValue: Int64
    /// The value the order sorts by before the title; nil in title order.
    public let sortValue: Int64?

    public init(_ rawValue: Int64, sortValue: Int64? = nil) {
        self.rawValue = rawValue
        self.sortValue = sortValue
    }

    public static func < (lhs: CatalogKey, rhs: CatalogKey) -> Bool {
        (lhs.sortValue ?? 0, lhs.rawValue) < (rhs.sortValue ?? 0, rhs.rawValue)
    }
}

extension CatalogKey {
    /// The key as the API's page key: the rank's decimal digits, after the sort value and a
    /// `.` in an order other than title's (every store's values and ranks are ≥ 0).
    public var pageKey: String { sortValue.map { "\($0).\(rawValue)" } ?? String(rawValue) }

    /// A page key read back for `sort`: 1–18 decimal digits, or for an order other than
    /// title's two such runs joined by a `.`, and nothing else; `nil` otherwise (a key of
    /// another order too).
    public init?(pageKey: String, sort: CatalogSort = .title) {
        func number(_ text: Substring) -> Int64? {
            guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int64(text)
        }
        let parts = pageKey.split(separator: ".", omittingEmptySubsequences: false)
        switch (sort.field, parts.count) {
        case (.title, 1):
            guard let rank = number(parts[0]) else { return nil }
            self.init(rank)
        case (.title, _), (_, 1), (_, 3...), (_, 0):
            return nil
        default:
            guard let value = number(parts[0]), let rank = number(parts[1]) else { return nil }
            self.init(rank, sortValue: value)
        }
    }

    /// A page key past every course in `sort`'s direction: `before` it is the last page (the
    /// API has no "last").
    public static func pastEveryPageKey(_ sort: CatalogSort = .title) -> String {
        let far = "999999999999999999"
        guard sort.field != .title else { return sort.descending ? "0" : far }
        return sort.descending ? "0.0" : "\(far).\(far)"
    }
}

/// A course with its place in the catalog order, as pages return them.
public struct CatalogRow: Hashable, Sendable {
    public let key: CatalogKey
    public let course: Course
    /// Its place in the order courses were added (what `newest` orders by), when the store
    /// says: with it a list can find the course's place in any other order.
    public let added: Int64?

    public init(key: CatalogKey, course: Course, added: Int64? = nil) {
        self.key = key
        self.course = course
        self.added = added
    }

    /// The course's key in `sort`: its title rank (the same in every order) with the value
    /// `sort` orders by. Nil in `newest` order when the store did not say when it was added.
    public func key(in sort: CatalogSort) -> CatalogKey? {
        guard sort.field != .title else { return CatalogKey(key.rawValue) }
        guard sort.field != .newest || added != nil else { return nil }
        return sort.value(of: course, added: added ?? 0).map { CatalogKey(key.rawValue, sortValue: $0) }
    }
}

/// Where a page of the catalog is read from.
public enum CatalogPosition: Hashable, Sendable {
    /// The first `limit` courses.
    case first
    /// The last `limit` courses.
    case last
    /// The courses right after this key.
    case after(CatalogKey)
    /// The courses right before this key.
    case before(CatalogKey)

    /// The key a page is read past (nil at either end), and whether it is read backwards
    /// (`last`, `before`: against the order, then turned around), as every store reads it.
    public var walk: (bound: CatalogKey?, backwards: Bool) {
        switch self {
        case .first: (nil, false)
        case .last: (nil, true)
        case .after(let key): (key, false)
        case .before(let key): (key, true)
        }
    }

    /// A page in level order (`descending`: advanced first) read as one title-order page per
    /// level: the levels to read, in reading order, each with where its read starts. The
    /// bound's own level starts at the bound; the levels before it are past, those after it
    /// read from their start (their end, backwards).
    public func levelByLevel(descending: Bool) -> [(level: CourseLevel, from: CatalogPosition)] {
        let (bound, backwards) = walk
        let reading = backwards != descending
        let levels = CourseLevel.allCases.sorted { reading ? $0.rank > $1.rank : $0.rank < $1.rank }
        return levels.compactMap { level in
            guard let bound else { return (level, self) }
            // A key in level order carries its level; one without is taken as the first's.
            let boundLevel = bound.sortValue ?? CourseLevel.beginner.rank
            if level.rank == boundLevel { return (level, self) }
            let past = reading ? level.rank > boundLevel : level.rank < boundLevel
            return past ? nil : (level, backwards ? .last : .first)
        }
    }
}

/// How many courses there are.
public enum CatalogCount: Hashable, Sendable {
    case exactly(Int)
    /// At least this many; counting further would cost more than it is worth.
    case atLeast(Int)
}
