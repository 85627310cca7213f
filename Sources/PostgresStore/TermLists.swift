import Synchronization

/// Search terms' lists of courses (their ranks, ascending) kept in the server for one revision
/// of the catalog, so a count of two or more common terms is an intersection in memory rather
/// than a merge of both lists in PostgreSQL each time: under the Zipf mix two-term counts were
/// 69-71 % of PostgreSQL's time (BENCHMARKS.md, "A school's read mix"), and most of them share
/// a list (a level's, `is:free`'s, a common word's) with many others. Bounded by the ranks it
/// holds; when over, the lists used least lately go. Shared by the copies of one repository;
/// a read gives the revision the lists are of (its caller compares), and a newer revision
/// starts again.
final class TermLists: Sendable {
    /// 8 M ranks, 64 MiB: the three levels (a third of a million courses each at 1 M) and a
    /// few hundred common words.
    static let capacity = 8 << 20
    /// The longest list kept (4 MiB; one more rank is read to know a list is longer): what one
    /// query may make the database read stays bounded.
    static let longest = capacity / 16

    private struct Kept {
        var revision: Int64 = 0
        var lists: [String: (ranks: [Int64], used: UInt64)] = [:]
        var ranks = 0
        var tick: UInt64 = 0
        /// Terms whose lists are past `longest`: not read again at this revision.
        var tooLong: Set<String> = []
    }

    private let capacity: Int
    private let kept = Mutex(Kept())

    init(capacity: Int = TermLists.capacity) {
        self.capacity = capacity
    }

    /// The lists kept of those of `terms` that are, each marked as used, with the revision
    /// they were kept at (the catalog may have moved on since).
    func kept(_ terms: [String]) -> (revision: Int64, lists: [String: [Int64]]) {
        kept.withLock { kept in
            var found: [String: [Int64]] = [:]
            for term in terms {
                guard let entry = kept.lists[term] else { continue }
                kept.tick += 1
                kept.lists[term]?.used = kept.tick
                found[term] = entry.ranks
            }
            return (kept.revision, found)
        }
    }

    /// Whether any of `terms` was found past `longest` at `revision`.
    func anyTooLong(_ terms: [String], at revision: Int64) -> Bool {
        kept.withLock { kept in kept.revision == revision && terms.contains { kept.tooLong.contains($0) } }
    }

    /// Keeps `lists`, read at `revision`, and that `tooLong` are past `longest`; lists past the
    /// capacity go, least lately used first.
    func keep(_ lists: [String: [Int64]], tooLong: [String] = [], at revision: Int64) {
        kept.withLock { kept in
            guard revision >= kept.revision else { return }
            if revision > kept.revision { kept = Kept(revision: revision) }
            kept.tooLong.formUnion(tooLong)
            for (term, ranks) in lists where ranks.count <= capacity {
                kept.tick += 1
                kept.ranks += ranks.count - (kept.lists[term]?.ranks.count ?? 0)
                kept.lists[term] = (ranks, kept.tick)
            }
            guard kept.ranks > capacity else { return }
            for (term, entry) in kept.lists.sorted(by: { $0.value.used < $1.value.used }) where kept.ranks > capacity {
                kept.ranks -= entry.ranks.count
                kept.lists[term] = nil
            }
        }
    }

    /// How many ranks are in every one of `lists` (each ascending, no repeats), counted up to
    /// `limit` + 1. The shortest list is walked (`walkCommon`).
    static func commonCount(_ lists: [[Int64]], limit: Int) -> Int {
        let bySize = lists.sorted { $0.count < $1.count }
        guard let walked = bySize.first else { return 0 }
        var count = 0
        walkCommon(walked, from: 0, others: Array(bySize.dropFirst())) { _ in
            count += 1
            return count <= limit
        }
        return count
    }

    /// Gives `body` the ranks of `walked` from `start` on that are in every one of `others`,
    /// ascending, until it says stop. Each other list is searched from where the last rank left
    /// it (from the first rank's place at the start, so a page deep in the lists steps through
    /// none before it): by galloping when it is much longer (a word's 40 k courses in a level's
    /// 333 k), step by step when alike.
    private static func walkCommon(_ walked: [Int64], from start: Int, others: [[Int64]], _ body: (Int64) -> Bool) {
        guard start < walked.count else { return }
        var positions = others.map { gallop(to: walked[start], in: $0, from: 0) }
        next: for rank in walked[start...] {
            for (index, other) in others.enumerated() {
                let found =
                    other.count > 16 * walked.count
                    ? gallop(to: rank, in: other, from: positions[index]) : step(to: rank, in: other, from: positions[index])
                positions[index] = found
                guard found < other.count else { return }
                guard other[found] == rank else { continue next }
            }
            guard body(rank) else { return }
        }
    }

    /// Up to `limit` ranks in every one of `lists`, past `bound` (after it, or before it when
    /// `descending`), in that order: a page of the catalog in title order. The shortest list
    /// is walked from the bound; each of its ranks is looked for in the others from where the
    /// last one was: up the lists as a count walks them (`walkCommon`), or down them by
    /// galloping when descending.
    static func commonRanks(_ lists: [[Int64]], past bound: Int64?, descending: Bool, limit: Int) -> [Int64] {
        let bySize = lists.sorted { $0.count < $1.count }
        guard let walked = bySize.first, limit > 0 else { return [] }
        let others = Array(bySize.dropFirst())
        var found: [Int64] = []
        if descending {
            // Each other list's ranks from `ends[i]` on are past the last rank looked for.
            var ends = others.map(\.count)
            var index = bound.map { gallop(to: $0, in: walked, from: 0) } ?? walked.count
            next: while index > 0, found.count < limit {
                index -= 1
                let rank = walked[index]
                for (other, list) in others.enumerated() {
                    let end = gallopDown(to: rank, in: list, before: ends[other])
                    ends[other] = end
                    guard end > 0 else { break next }
                    guard list[end - 1] == rank else { continue next }
                }
                found.append(rank)
            }
        } else {
            var index = 0
            if let bound {
                index = gallop(to: bound, in: walked, from: 0)
                if index < walked.count, walked[index] == bound { index += 1 }
            }
            walkCommon(walked, from: index, others: others) { rank in
                found.append(rank)
                return found.count < limit
            }
        }
        return found
    }

    /// The first index at or after `from` whose rank is not below `rank`, one step at a time.
    private static func step(to rank: Int64, in list: [Int64], from: Int) -> Int {
        var index = from
        while index < list.count, list[index] < rank { index += 1 }
        return index
    }

    /// The same, by doubling strides and then halving: a few comparisons a match in a list many
    /// times longer than the walked one.
    private static func gallop(to rank: Int64, in list: [Int64], from: Int) -> Int {
        var low = from
        var stride = 1
        var high = from
        while high < list.count, list[high] < rank {
            low = high + 1
            high += stride
            stride *= 2
        }
        high = min(high, list.count)
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < rank { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// How many of the first `end` ranks of `list` are not above `rank`: `gallop` mirrored, by
    /// doubling strides down from `end` and then halving.
    private static func gallopDown(to rank: Int64, in list: [Int64], before end: Int) -> Int {
        // Every rank from `high` up to `end` is above `rank`.
        var high = end
        var stride = 1
        while high - stride >= 0, list[high - stride] > rank {
            high -= stride
            stride *= 2
        }
        var low = max(high - stride + 1, 0)
        while low < high {
            let middle = (low + high) / 2
            if list[middle] > rank { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
