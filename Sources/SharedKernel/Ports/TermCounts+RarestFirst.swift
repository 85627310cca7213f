extension TermCounts {
    /// The plan of a search of several terms: `terms` with the rarest first, the first to be
    /// walked in rank order and the others checked on each row it walks. Counts kept lately
    /// are used; the terms without one are counted by `counting` (each store in its own SQL,
    /// up to `bound`), and kept. A single term needs no count.
    public func rarestFirst<Failure: Error>(
        _ terms: [String], now: ContinuousClock.Instant = .now, counting: ([String]) throws(Failure) -> [String: Int]
    ) throws(Failure) -> [String] {
        guard terms.count > 1 else { return terms }
        let (kept, missing) = known(terms, now: now)
        return ranked(terms, kept: kept, counted: missing.isEmpty ? [:] : try counting(missing), now: now)
    }

    /// `rarestFirst(_:now:counting:)` for a store whose counts are read asynchronously.
    public func rarestFirst<Failure: Error>(
        _ terms: [String], now: ContinuousClock.Instant = .now, counting: ([String]) async throws(Failure) -> [String: Int]
    ) async throws(Failure) -> [String] {
        guard terms.count > 1 else { return terms }
        let (kept, missing) = known(terms, now: now)
        return ranked(terms, kept: kept, counted: missing.isEmpty ? [:] : try await counting(missing), now: now)
    }

    /// The fresh counts kept among `terms`, and the terms that have none.
    private func known(_ terms: [String], now: ContinuousClock.Instant) -> (kept: [String: Int], missing: [String]) {
        let kept = counts(of: terms, now: now)
        return (kept, terms.filter { kept[$0] == nil })
    }

    private func ranked(_ terms: [String], kept: [String: Int], counted: [String: Int], now: ContinuousClock.Instant) -> [String] {
        if !counted.isEmpty { keep(counted, now: now) }
        return Self.rarestFirst(terms, counts: kept.merging(counted) { $1 })
    }
}
