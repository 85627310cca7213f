/// SplitMix64 (Steele, Lea and Flood, 2014): a small generator that gives the same numbers
/// for the same seed on every machine and run, unlike `SystemRandomNumberGenerator`. What
/// must come out the same in two terminals (a card's order of choices) or in a test (the
/// fuzz on an interval) draws from it.
public struct SeededRandomGenerator: RandomNumberGenerator, Hashable, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed from `text`, the same everywhere (FNV-1a over its UTF-8): Swift's `Hasher` is
    /// seeded anew in each process.
    public static func seed(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
