/// How often each key was asked lately, approximately, in a fixed few bytes per kept page: a
/// count-min sketch of four rows of small counters, halved every `sampleSize` asks so that old
/// popularity fades (TinyLFU, Einziger, Friedman and Manes, 2017). The page cache keeps a new
/// page only when it was asked more often than the page it would push out, so a run of pages
/// asked once (a crawler, the long tail of a school's searches) cannot flush the hot ones.
struct FrequencySketch {
    /// A counter stops at this, so that halving brings a once-hot key down in a few periods.
    static let ceiling: UInt8 = 15

    private var counters: [UInt8]
    private let mask: Int
    private let sampleSize: Int
    private var asked = 0

    /// Room for about `keys` keys: each row is the next power of two at or above it.
    init(keys: Int) {
        var width = 64
        while width < keys, width < 1 << 22 { width <<= 1 }
        counters = Array(repeating: 0, count: 4 * width)
        mask = width - 1
        sampleSize = 10 * width
    }

    /// Counts one ask of the key whose hash is `hash`.
    mutating func record(_ hash: Int) {
        let (low, step) = Self.mix(hash)
        var added = false
        for row in 0..<4 {
            let index = row * (mask + 1) + (low &+ row &* step) & mask
            if counters[index] < Self.ceiling {
                counters[index] += 1
                added = true
            }
        }
        guard added else { return }
        asked += 1
        if asked >= sampleSize { halve() }
    }

    /// About how often the key whose hash is `hash` was asked lately (never fewer than it was).
    func estimate(_ hash: Int) -> UInt8 {
        let (low, step) = Self.mix(hash)
        var least = Self.ceiling
        for row in 0..<4 { least = min(least, counters[row * (mask + 1) + (low &+ row &* step) & mask]) }
        return least
    }

    private mutating func halve() {
        for index in counters.indices { counters[index] >>= 1 }
        asked /= 2
    }

    /// The key's counter in row r is at `low + r × step`: two numbers from one 64-bit mix of
    /// its hash (double hashing), the step odd so the rows differ.
    private static func mix(_ hash: Int) -> (low: Int, step: Int) {
        var mixed = UInt64(bitPattern: Int64(hash)) &* 0x9E37_79B9_7F4A_7C15
        mixed ^= mixed >> 29
        return (Int(truncatingIfNeeded: mixed), Int(truncatingIfNeeded: mixed >> 32) | 1)
    }
}
