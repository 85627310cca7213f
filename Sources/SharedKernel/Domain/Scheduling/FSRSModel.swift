import Foundation

/// FSRS-6's formulas, written as py-fsrs 6.3.2 writes them (`Scheduler._initial_stability`
/// and its siblings). The order of operations and `pow(e, x)` in place of `exp(x)` follow
/// the reference on purpose: both call the C library's `pow`, so results agree to the bit
/// and an interval never rounds the other way at a .5 boundary.
struct FSRSModel: Hashable, Sendable {
    static let minimumStability = 0.001
    static let difficultyRange = 1.0...10.0
    /// Python's `math.e`.
    static let e = 2.718281828459045

    let w: [Double]
    /// The forgetting curve's exponent, −w20.
    let decay: Double
    /// Chosen so that recall probability is exactly 90 % after `stability` days.
    let factor: Double

    init(weights: [Double]) {
        w = weights
        decay = -weights[20]
        factor = pow(0.9, 1 / decay) - 1
    }

    // MARK: - Forgetting curve

    /// R(t, S) = (1 + factor · t / S)^decay, with t in whole days.
    func retrievability(elapsedDays: Int, stability: Double) -> Double {
        pow(1 + factor * Double(max(0, elapsedDays)) / stability, decay)
    }

    /// Days until recall probability falls to `retention`: rounded half to even (Python's
    /// `round`), at least 1, at most `maximum`.
    func interval(stability: Double, retention: Double, maximum: Int) -> Int {
        let days = (stability / factor) * (pow(retention, 1 / decay) - 1)
        let rounded = days.rounded(.toNearestOrEven)
        guard rounded.isFinite else { return maximum }
        return min(max(Int(rounded), 1), maximum)
    }

    // MARK: - First review

    func initialStability(_ rating: Int) -> Double {
        max(w[rating - 1], Self.minimumStability)
    }

    func initialDifficulty(_ rating: Int, clamped: Bool = true) -> Double {
        let difficulty = w[4] - pow(Self.e, w[5] * Double(rating - 1)) + 1
        return clamped ? clampDifficulty(difficulty) : difficulty
    }

    // MARK: - Later reviews

    /// Linear damping towards 10, then mean reversion towards the "easy" first difficulty.
    func nextDifficulty(_ difficulty: Double, rating: Int) -> Double {
        let target = initialDifficulty(4, clamped: false)
        let delta = -(w[6] * Double(rating - 3))
        let damped = difficulty + (10.0 - difficulty) * delta / 9.0
        return clampDifficulty(w[7] * target + (1 - w[7]) * damped)
    }

    /// A review less than a whole day after the previous one (w17–w19): the stability
    /// changes by a factor that does not depend on recall probability; a pass never lowers it.
    func shortTermStability(_ stability: Double, rating: Int) -> Double {
        var increase = pow(Self.e, w[17] * (Double(rating - 3) + w[18])) * pow(stability, -w[19])
        if rating >= 2 { increase = max(increase, 1.0) }
        return max(stability * increase, Self.minimumStability)
    }

    /// A review a day or more after the previous one.
    func nextStability(difficulty: Double, stability: Double, retrievability: Double, rating: Int) -> Double {
        let next =
            rating == 1
            ? forgetStability(difficulty: difficulty, stability: stability, retrievability: retrievability)
            : recallStability(difficulty: difficulty, stability: stability, retrievability: retrievability, rating: rating)
        return max(next, Self.minimumStability)
    }

    private func forgetStability(difficulty: Double, stability: Double, retrievability: Double) -> Double {
        let longTerm =
            w[11] * pow(difficulty, -w[12]) * (pow(stability + 1, w[13]) - 1)
            * pow(Self.e, (1 - retrievability) * w[14])
        // A lapse never leaves the card more stable than a same-day "again" would.
        let shortTerm = stability / pow(Self.e, w[17] * w[18])
        return min(longTerm, shortTerm)
    }

    private func recallStability(difficulty: Double, stability: Double, retrievability: Double, rating: Int) -> Double {
        let hardPenalty = rating == 2 ? w[15] : 1
        let easyBonus = rating == 4 ? w[16] : 1
        return stability
            * (1 + pow(Self.e, w[8]) * (11 - difficulty) * pow(stability, -w[9])
                * (pow(Self.e, (1 - retrievability) * w[10]) - 1) * hardPenalty * easyBonus)
    }

    private func clampDifficulty(_ difficulty: Double) -> Double {
        min(max(difficulty, Self.difficultyRange.lowerBound), Self.difficultyRange.upperBound)
    }
}

enum FSRSTime {
    static let secondsPerDay: TimeInterval = 86_400
    private static let microsecondsPerDay: Int64 = 86_400_000_000

    /// Whole days from `start` to `end`, rounded down, as Python's `timedelta.days` counts
    /// them: 23 h 59 min is 0 days, and a day is 86 400 s whatever the calendar says. Done in
    /// integer microseconds (datetime's resolution) so that N days − 1 µs is N − 1.
    static func elapsedDays(from start: Date, to end: Date) -> Int {
        let seconds = end.timeIntervalSinceReferenceDate - start.timeIntervalSinceReferenceDate
        let micro = (seconds * 1_000_000).rounded()
        guard micro.isFinite, abs(micro) < 9e18 else { return seconds < 0 ? Int.min / 2 : Int.max / 2 }
        let total = Int64(micro)
        let (quotient, remainder) = total.quotientAndRemainder(dividingBy: microsecondsPerDay)
        return Int(remainder < 0 ? quotient - 1 : quotient)
    }
}
