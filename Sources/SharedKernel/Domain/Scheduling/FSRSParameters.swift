import Foundation

/// The settings of an FSRS-6 scheduler: the model's 21 weights and the choices a learner
/// makes (retention, steps, longest interval, fuzz). Built only through the validating
/// initializer, so a scheduler never holds weights the model was not fitted for.
///
/// Defaults are those of the reference, py-fsrs 6.3.2 (`fsrs/scheduler.py`).
public struct FSRSParameters: Hashable, Sendable {
    /// FSRS-6's default weights w0…w20 (py-fsrs 6.3.2 `DEFAULT_PARAMETERS`); w20 is the decay.
    public static let defaultWeights: [Double] = [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
        1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
    ]

    /// Each weight's allowed range (py-fsrs `LOWER_BOUNDS_PARAMETERS` / `UPPER_BOUNDS_PARAMETERS`):
    /// outside it the formulas can divide by zero or make memory grow without bound.
    public static let weightBounds: [ClosedRange<Double>] = {
        let lower: [Double] = [
            0.001, 0.001, 0.001, 0.001, 1.0, 0.001, 0.001, 0.001, 0.0, 0.0, 0.001,
            0.001, 0.001, 0.001, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.1,
        ]
        let upper: [Double] = [
            100.0, 100.0, 100.0, 100.0, 10.0, 4.0, 4.0, 0.75, 4.5, 0.8, 3.5,
            5.0, 0.25, 0.9, 4.0, 1.0, 6.0, 2.0, 2.0, 0.8, 0.8,
        ]
        return zip(lower, upper).map { $0...$1 }
    }()

    /// The desired retentions the app accepts. Below 70 % cards are mostly forgotten when
    /// they come due; above 97 % the workload grows steeply for little gain.
    public static let retentionRange: ClosedRange<Double> = 0.70...0.97

    public let weights: [Double]
    /// The probability of recall at which a review card falls due.
    public let desiredRetention: Double
    /// Delays between the first reviews of a new card, in seconds.
    public let learningSteps: [TimeInterval]
    /// Delays between the reviews of a forgotten card, in seconds.
    public let relearningSteps: [TimeInterval]
    /// The longest interval of a review card, in days.
    public let maximumIntervalDays: Int
    /// Spreads review intervals of 3 days or more a little, so cards learnt together do not
    /// all fall due on the same day.
    public let enableFuzzing: Bool

    public init(
        weights: [Double] = FSRSParameters.defaultWeights,
        desiredRetention: Double = 0.9,
        learningSteps: [TimeInterval] = [60, 600],
        relearningSteps: [TimeInterval] = [600],
        maximumIntervalDays: Int = 36_500,
        enableFuzzing: Bool = true
    ) throws(FSRSParameterError) {
        guard weights.count == Self.defaultWeights.count else {
            throw .wrongWeightCount(weights.count)
        }
        for (index, (weight, bounds)) in zip(weights, Self.weightBounds).enumerated()
        where !bounds.contains(weight) {
            throw .weightOutOfBounds(index: index, value: weight, bounds: bounds)
        }
        try Self.validate(retention: desiredRetention)
        for step in learningSteps + relearningSteps where !(step.isFinite && step > 0) {
            throw .invalidStep(step)
        }
        guard maximumIntervalDays >= 1 else { throw .invalidMaximumInterval(maximumIntervalDays) }
        self.weights = weights
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.maximumIntervalDays = maximumIntervalDays
        self.enableFuzzing = enableFuzzing
    }

    /// The reference's defaults: retention 0.9, steps 1 min and 10 min, relearning 10 min,
    /// 100 years at most, fuzz on.
    public static let `default`: FSRSParameters = {
        do {
            return try FSRSParameters()
        } catch {
            preconditionFailure("FSRS defaults are invalid: \(error)")
        }
    }()

    /// Refuses a retention outside `retentionRange`, saying why.
    public static func validate(retention: Double) throws(FSRSParameterError) {
        guard retentionRange.contains(retention) else { throw .retentionOutOfRange(retention) }
    }
}

/// Why a set of FSRS parameters was refused.
public enum FSRSParameterError: Error, Hashable, Sendable, CustomStringConvertible {
    case wrongWeightCount(Int)
    case weightOutOfBounds(index: Int, value: Double, bounds: ClosedRange<Double>)
    case retentionOutOfRange(Double)
    case invalidStep(TimeInterval)
    case invalidMaximumInterval(Int)

    public var description: String {
        switch self {
        case .wrongWeightCount(let count):
            "FSRS-6 needs 21 weights, got \(count)."
        case .weightOutOfBounds(let index, let value, let bounds):
            "Weight w\(index) = \(value) is outside \(bounds.lowerBound)…\(bounds.upperBound)."
        case .retentionOutOfRange(let value):
            "Desired retention \(value) is outside 0.70…0.97: below, most cards are forgotten "
                + "before they come due; above, the reviews pile up for little gain."
        case .invalidStep(let step):
            "A learning step must be a positive number of seconds, got \(step)."
        case .invalidMaximumInterval(let days):
            "The maximum interval must be at least 1 day, got \(days)."
        }
    }
}
