/// A price in minor units (cents) of a three-letter currency, so that sums and comparisons are exact.
public struct Price: Hashable, Sendable {
    public let minorUnits: Int
    public let currency: String

    public init(minorUnits: Int, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    public var isFree: Bool { minorUnits == 0 }

    /// `35.99 EUR`, or `Free` for a price of zero. A negative amount (which no store accepts)
    /// reads `-1.50 EUR`, not `-1.-50 EUR`; its magnitude cannot overflow.
    public var formatted: String {
        if isFree { return "Free" }
        let amount = minorUnits.magnitude
        let whole = amount / 100
        let cents = amount % 100
        return "\(minorUnits < 0 ? "-" : "")\(whole).\(cents < 10 ? "0" : "")\(cents) \(currency)"
    }
}
