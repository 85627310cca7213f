import Foundation

extension FSRSScheduler {
    /// py-fsrs's `FUZZ_RANGES`: the spread grows by 15 % of the days between 2.5 and 7, 10 %
    /// of those between 7 and 20, and 5 % of those beyond, on top of ±1 day.
    private static let fuzzBands: [(start: Double, end: Double, factor: Double)] = [
        (2.5, 7.0, 0.15), (7.0, 20.0, 0.1), (20.0, .infinity, 0.05),
    ]

    /// The reference's fuzz range for a review interval of `days` (`min_ivl…max_ivl` in
    /// `_get_fuzzed_interval`), or nil under 2.5 days, which are never fuzzed. Bounds are
    /// rounded half to even, at least 2 and at most the maximum interval.
    ///
    /// Note: the reference draws `random() × (max − min + 1) + min` and *rounds* it, so the
    /// fuzzed interval can be `max + 1` (when the draw is past max + 0.5); it is still capped
    /// at the maximum interval. `fuzzedInterval` keeps that to stay identical to it.
    public func fuzzRange(forIntervalDays days: Int) -> ClosedRange<Int>? {
        let value = Double(days)
        guard value >= 2.5 else { return nil }
        var delta = 1.0
        for band in Self.fuzzBands {
            delta += band.factor * max(min(value, band.end) - band.start, 0.0)
        }
        var lower = Int((value - delta).rounded(.toNearestOrEven))
        var upper = Int((value + delta).rounded(.toNearestOrEven))
        lower = max(2, lower)
        upper = min(upper, parameters.maximumIntervalDays)
        lower = min(lower, upper)
        return lower...upper
    }

    /// `days` fuzzed with `unit`, a uniform number in [0, 1), exactly as the reference.
    func fuzzedInterval(days: Int, unit: Double) -> Int {
        guard let range = fuzzRange(forIntervalDays: days) else { return days }
        let drawn = unit * Double(range.count) + Double(range.lowerBound)
        return min(Int(drawn.rounded(.toNearestOrEven)), parameters.maximumIntervalDays)
    }
}
