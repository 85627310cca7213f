import Foundation
import SharedKernel

/// `Fixtures/fsrs-6.3.2-histories.json`, written by `Scripts/fsrs-fixture.py` from py-fsrs
/// 6.3.2. Instants are integer microseconds since 1970, so nothing is lost on the way.
struct FSRSReferenceFixture: Decodable {
    let reference: String
    let histories: [History]
    let fuzz: [FuzzCase]

    struct History: Decodable {
        let w: [Double]?
        let retention: Double
        let learning: [Double]
        let relearning: [Double]
        let max: Int
        let created: Int64
        let reviews: [Review]

        func parameters() throws -> FSRSParameters {
            try FSRSParameters(
                weights: w ?? FSRSParameters.defaultWeights, desiredRetention: retention,
                learningSteps: learning, relearningSteps: relearning,
                maximumIntervalDays: max, enableFuzzing: false)
        }
    }

    /// One review and the reference's card after it.
    struct Review: Decodable {
        let grade: ReviewGrade
        let at: Int64
        let retrievabilityBefore: Double
        let state: Int
        let step: Int?
        let stability: Double
        let difficulty: Double
        let due: Int64
        let interval: Int64

        init(from decoder: any Decoder) throws {
            var row = try decoder.unkeyedContainer()
            grade = ReviewGrade.allCases[try row.decode(Int.self) - 1]
            at = try row.decode(Int64.self)
            retrievabilityBefore = try row.decode(Double.self)
            state = try row.decode(Int.self)
            step = try row.decodeNil() ? nil : try row.decode(Int.self)
            stability = try row.decode(Double.self)
            difficulty = try row.decode(Double.self)
            due = try row.decode(Int64.self)
            interval = try row.decode(Int64.self)
        }
    }

    /// The reference's `_get_fuzzed_interval` with its `random()` pinned to `unit`.
    struct FuzzCase: Decodable {
        let days: Int
        let maximum: Int
        let unit: Double
        let fuzzed: Int

        init(from decoder: any Decoder) throws {
            var row = try decoder.unkeyedContainer()
            days = try row.decode(Int.self)
            maximum = try row.decode(Int.self)
            unit = try row.decode(Double.self)
            fuzzed = try row.decode(Int.self)
        }
    }

    static let shared: FSRSReferenceFixture = {
        do {
            guard
                let url = Bundle.module.url(
                    forResource: "fsrs-6.3.2-histories", withExtension: "json", subdirectory: "Fixtures")
            else { preconditionFailure("fixture missing from the test bundle") }
            return try JSONDecoder().decode(FSRSReferenceFixture.self, from: Data(contentsOf: url))
        } catch {
            preconditionFailure("fixture unreadable: \(error)")
        }
    }()
}

extension Date {
    init(epochMicroseconds microseconds: Int64) {
        self.init(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }

    var epochMicroseconds: Int64 {
        Int64((timeIntervalSince1970 * 1_000_000).rounded())
    }
}
