/// The order a catalog list is read in: a field and a direction. Every order breaks ties by
/// title order, in the order's direction, so a page key names one place whatever the data.
public struct CatalogSort: Hashable, Sendable {
    public enum Field: String, CaseIterable, Hashable, Sendable {
        case title, price, duration, level, newest
    }

    public var field: Field
    /// Against the field's natural direction (see `descending`).
    public var isReversed: Bool

    public init(_ field: Field, reversed: Bool = false) {
        self.field = field
        self.isReversed = reversed
    }

    public static let title = CatalogSort(.title)

    /// Whether the field's values are read from high to low: newest first is the natural way
    /// round for `newest` (the most recently added course first), low to high for the rest.
    public var descending: Bool { (field == .newest) != isReversed }

    /// `s`: the next field, in its natural direction; after `newest`, title again.
    public var next: CatalogSort {
        let all = Field.allCases
        let index = all.firstIndex(of: field) ?? 0
        return CatalogSort(all[(index + 1) % all.count])
    }

    /// `S`: the same field the other way round.
    public var reversed: CatalogSort { CatalogSort(field, reversed: !isReversed) }

    /// The API's `sort` value: the field's name, `-` before it when reversed.
    public var apiText: String { (isReversed ? "-" : "") + field.rawValue }

    /// The API's `sort` value read back, or nil.
    public init?(apiText: String) {
        let reversed = apiText.hasPrefix("-")
        guard let field = Field(rawValue: String(apiText.dropFirst(reversed ? 1 : 0))) else { return nil }
        self.init(field, reversed: reversed)
    }

    /// What the catalog's header says of the order: `title A–Z`, `price by currency, lowest first`.
    public var label: LocalizedText {
        switch (field, isReversed) {
        case (.title, false): "title A–Z"
        case (.title, true): "title Z–A"
        case (.price, false): "price by currency, lowest first"
        case (.price, true): "price by currency, highest first"
        case (.duration, false): "duration, shortest first"
        case (.duration, true): "duration, longest first"
        case (.level, false): "level, beginner first"
        case (.level, true): "level, advanced first"
        case (.newest, false): "newest first"
        case (.newest, true): "oldest first"
        }
    }

    /// The order in a word or two, where room is short (the search line): `price ↑` is
    /// lowest first.
    public var shortLabel: LocalizedText {
        switch field {
        case .title: isReversed ? "Z–A" : "A–Z"
        case .newest: isReversed ? "oldest" : "newest"
        case .price: isReversed ? "price ↓" : "price ↑"
        case .duration: isReversed ? "duration ↓" : "duration ↑"
        case .level: isReversed ? "level ↓" : "level ↑"
        }
    }

    /// The value a course is ordered by before its title: a price in minor units, minutes,
    /// the level's place (beginner 0), or (`newest`) the order courses were added to the
    /// catalog, which only the store knows (`added`). Nil for title order.
    public func value(of course: Course, added: Int64) -> Int64? {
        switch field {
        case .title: nil
        case .price: Self.priceValue(course.price)
        case .duration: Int64(course.durationMinutes)
        case .level: course.level.rank
        case .newest: added
        }
    }
}

extension CatalogSort {
    /// Price order's value: free courses first (0), then by currency (`EUR` before `USD`) and
    /// amount within it, so `49.00 USD` and `49.00 EUR` are never taken for the same price.
    /// The currency's three letters, case folded, are a number from 1 to 26³ above the amount
    /// (at most 10⁸ minor units); every store computes the same value in SQL.
    public static func priceValue(_ price: Price) -> Int64 {
        guard price.minorUnits > 0 else { return 0 }
        let letters = Array(price.currency.uppercased().utf8.prefix(3))
        let currency = letters.reduce(Int64(0)) { $0 * 26 + Int64($1) - 65 } + 1
        return currency * priceCurrencyStep + Int64(price.minorUnits)
    }

    /// What one step of the currency weighs in `priceValue`: more than any amount.
    public static let priceCurrencyStep: Int64 = 1_000_000_000
}

extension CourseLevel {
    /// Its place from beginner (0) to advanced (2), as every store orders levels.
    public var rank: Int64 {
        switch self {
        case .beginner: 0
        case .intermediate: 1
        case .advanced: 2
        }
    }
}

extension CatalogQuery {
    /// The value `field` has in every course the query matches, when a filter fixes it
    /// (`level:adv` in level order, `is:free` in price order): that order is then title
    /// order within it, and a store can walk it as title order.
    public func fixedValue(of field: CatalogSort.Field) -> Int64? {
        switch field {
        case .level: level?.rank
        case .price: isFree ? 0 : nil
        default: nil
        }
    }
}
