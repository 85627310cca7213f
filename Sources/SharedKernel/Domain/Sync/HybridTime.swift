import Foundation

/// A reading of a hybrid logical clock: wall-clock milliseconds, a counter for events the
/// wall clock cannot tell apart (or that arrived from a clock ahead of ours), and the node
/// that made it. Ordered by all three, so every replica orders every operation alike, and
/// an operation made after another one was seen is later whatever the two clocks said.
public struct HybridTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970, UTC.
    public let milliseconds: Int64
    public let counter: Int
    /// The terminal (or server) that made it: letters, digits, `-` and `_`, 1 to 32 of them.
    public let node: String

    /// Widths of the text form, so text order is time order.
    private static let millisecondDigits = 13
    private static let counterDigits = 5
    public static let counters = 0...99_999
    public static let milliseconds = Int64(0)...Int64(9_999_999_999_999)

    public init?(milliseconds: Int64, counter: Int = 0, node: String) {
        guard Self.milliseconds.contains(milliseconds), Self.counters.contains(counter), Self.isNode(node) else { return nil }
        self.init(checked: milliseconds, counter, node)
    }

    /// Values already within their ranges.
    fileprivate init(checked milliseconds: Int64, _ counter: Int, _ node: String) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.node = node
    }

    /// The earliest time of `date` on `node`.
    public init(_ date: Date, node: String) {
        let milliseconds = Self.milliseconds.clamped(Int64((date.timeIntervalSince1970 * 1_000).rounded(.down)))
        self.init(checked: milliseconds, 0, Self.isNode(node) ? node : "node")
    }

    /// `0001732000000000-00000-node`: fixed widths, so comparing texts compares times.
    /// Read byte by byte: every queued operation and every stored merge time is parsed, and
    /// splitting into `Character`s was 3 % of the operation route's time.
    public init?(_ text: String) {
        let nodeStart = Self.millisecondDigits + 1 + Self.counterDigits + 1
        guard text.utf8.count <= nodeStart + 32 else { return nil }  // a node is 32 at most
        let bytes = Array(text.utf8)
        guard bytes.count > nodeStart, bytes[Self.millisecondDigits] == 0x2D, bytes[nodeStart - 1] == 0x2D,
            let milliseconds = Self.number(bytes[0..<Self.millisecondDigits]),
            let counter = Self.number(bytes[(Self.millisecondDigits + 1)..<(nodeStart - 1)])
        else { return nil }
        self.init(milliseconds: milliseconds, counter: Int(counter), node: String(decoding: bytes[nodeStart...], as: UTF8.self))
    }

    /// ASCII digits only (no sign, no space), at most 13 of them: no overflow.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    public var description: String {
        let ms = String(milliseconds)
        let count = String(counter)
        return String(repeating: "0", count: Self.millisecondDigits - ms.count) + ms + "-"
            + String(repeating: "0", count: Self.counterDigits - count.count) + count + "-" + node
    }

    /// The wall-clock instant it stands for (to the millisecond).
    public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1_000) }

    public static func < (a: HybridTime, b: HybridTime) -> Bool {
        (a.milliseconds, a.counter, a.node) < (b.milliseconds, b.counter, b.node)
    }

    /// No later than `limit`'s millisecond: a time from a clock far ahead of the server's is
    /// taken as the server's now, so it cannot win every merge for years.
    public func clamped(notAfter limit: Date) -> HybridTime {
        let latest = Self.milliseconds.clamped(Int64((limit.timeIntervalSince1970 * 1_000).rounded(.down)))
        guard milliseconds > latest else { return self }
        return HybridTime(checked: latest, Self.counters.upperBound, node)
    }

    static func isNode(_ text: String) -> Bool { isToken(text, lengths: 1...32) }

    /// Letters, digits, `-` and `_` only, as many as `lengths` says.
    static func isToken(_ text: String, lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
            }
    }
}

/// The clock itself (Kulkarni et al., "Logical Physical Clocks", 2014): each reading is later
/// than every reading made or seen before, and stays close to the wall clock.
public struct HybridClock: Sendable {
    public let node: String
    public private(set) var last: HybridTime?

    public init(node: String, last: HybridTime? = nil) {
        self.node = HybridTime.isNode(node) ? node : "node"
        self.last = last
    }

    /// A time for an event happening now.
    public mutating func tick(now: Date) -> HybridTime {
        let wall = HybridTime(now, node: node)
        let next: HybridTime
        if let last, last.milliseconds >= wall.milliseconds {
            next = Self.after(last.milliseconds, counter: last.counter, node: node)
        } else {
            next = wall
        }
        last = next
        return next
    }

    /// Takes in a time seen from another node, so the next tick is later than it.
    public mutating func receive(_ seen: HybridTime, now: Date) {
        let wall = HybridTime(now, node: node)
        let latest = max(wall.milliseconds, seen.milliseconds, last?.milliseconds ?? 0)
        var counter = 0
        if latest == seen.milliseconds { counter = max(counter, seen.counter) }
        if let last, latest == last.milliseconds { counter = max(counter, last.counter) }
        last = HybridTime(checked: latest, counter, node)
    }

    /// The next reading after `milliseconds`/`counter`: the counter runs on, and a full
    /// counter moves to the next millisecond.
    private static func after(_ milliseconds: Int64, counter: Int, node: String) -> HybridTime {
        if counter < HybridTime.counters.upperBound {
            return HybridTime(checked: milliseconds, counter + 1, node)
        }
        return HybridTime(checked: HybridTime.milliseconds.clamped(milliseconds + 1), 0, node)
    }
}

extension ClosedRange {
    fileprivate func clamped(_ value: Bound) -> Bound { Swift.min(Swift.max(value, lowerBound), upperBound) }
}
