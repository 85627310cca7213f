/// A price in minor units (cents) of a three-letter currency, so that sums and comparisons are exact.
public struct Price: Hashable, Sendable {
    public let minorUnits: Int
    public let currency: String

    public init(minorUnits: Int, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    public var isFree: Bool { minorUnits == 0 }

    /// `35.99 EUR`, or `Free` for a price of zero.
    public var formatted: String {
        if isFree { return "Free" }
        let whole = minorUnits / 100
        let cents = minorUnits % 100
        return "\(whole).\(cents < 10 ? "0" : "")\(cents) \(currency)"
    }
}
