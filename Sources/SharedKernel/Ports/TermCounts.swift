import Synchronization

/// How many courses each search term has, counted up to `bound`: which term of a query a page
/// walks in rank order, the others being checked per row it walks. A word is most often rarer
/// than a facet, but not always: at 1 M there are 75 free courses and 40,000 with a word
/// beginning `swift`, and walking `swift` to find `is:free` took 500 ms in PostgreSQL where
/// walking `#free` takes 2. Counts only choose the plan, never the answer, so one kept a few
/// minutes after a change costs time at most. Each store names its terms its own way.
public final class TermCounts: Sendable {
    /// Past this many, a term is as common as any other for the choice.
    public static let bound = 10_000
    /// Enough for every term in use; when full it starts again.
    public static let capacity = 4_096
    /// How long a count is trusted.
    public static let lifetime = Duration.seconds(300)

    private let entries = Mutex<[String: (count: Int, at: ContinuousClock.Instant)]>([:])

    public init() {}

    /// The kept counts among `terms` that are still fresh.
    public func counts(of terms: [String], now: ContinuousClock.Instant = .now) -> [String: Int] {
        entries.withLock { entries in
            var found: [String: Int] = [:]
            for term in terms {
                if let entry = entries[term], now - entry.at < Self.lifetime { found[term] = entry.count }
            }
            return found
        }
    }

    public func keep(_ counts: [String: Int], now: ContinuousClock.Instant = .now) {
        entries.withLock { entries in
            if entries.count + counts.count > Self.capacity { entries = [:] }
            for (term, count) in counts { entries[term] = (count, now) }
        }
    }

    /// `terms` with the rarest first; equal counts keep their order (longer words first).
    public static func rarestFirst(_ terms: [String], counts: [String: Int]) -> [String] {
        terms.enumerated()
            .sorted { (counts[$0.element] ?? bound, $0.offset) < (counts[$1.element] ?? bound, $1.offset) }
            .map(\.element)
    }
}
