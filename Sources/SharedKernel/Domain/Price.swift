/// A price in minor units (cents) of a three-letter currency, so that sums and comparisons are exact.
public struct Price: Hashable, Sendable {
    public let minorUnits: Int
    public let currency: String

    public init(minorUnits: Int, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    public var isFree: Bool { minorUnits == 0 }
}
