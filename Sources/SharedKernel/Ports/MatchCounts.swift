/// Counts of matches, kept per query for one revision of the catalog (a number the store
/// moves whenever what a search matches may change): a search page needs its count, and
/// counting up to 10,000 matches cost more than the page itself. Queries that depend on the
/// learner are never kept. Shared by the copies of one repository; each store keeps its
/// revision in its database, so several processes stay right.
public final class MatchCounts: Sendable {
    /// Enough for every query in use (a school's read mix asks about 10,000: BENCHMARKS.md,
    /// "A school's read mix"), a few megabytes; when full it starts again (a recount of two
    /// common words costs 2 ms at 1 M, four times their page).
    public static let capacity = 16_384

    private let kept = RevisionKept<CatalogQuery, CatalogCount>(capacity: capacity)

    public init() {}

    /// The count kept for `query` at `revision`, if any.
    public func count(of query: CatalogQuery, at revision: Int64) -> CatalogCount? {
        kept.values(for: [query.unsorted], at: revision)[query.unsorted]
    }

    public func keep(_ count: CatalogCount, of query: CatalogQuery, at revision: Int64) {
        kept.keep([query.unsorted: count], at: revision)
    }
}
