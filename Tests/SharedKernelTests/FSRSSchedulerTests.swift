import Foundation
import Testing

@testable import SharedKernel

@Suite("FSRS scheduler")
struct FSRSSchedulerTests {
    let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    /// A card in review with an unfuzzed interval of about `days` days.
    private func reviewCard(scheduler: FSRSScheduler, stability: Double) -> FSRSCard {
        FSRSCard(
            state: .review, step: nil, stability: stability, difficulty: 5, due: start,
            lastReview: start.addingTimeInterval(-86_400 * stability))
    }

    @Test("fuzz stays in the reference's range and never touches intervals under 2.5 days")
    func fuzzRange() throws {
        let scheduler = FSRSScheduler(parameters: try FSRSParameters(enableFuzzing: true))
        var random = SeededRandomGenerator(seed: 1)
        #expect(scheduler.fuzzRange(forIntervalDays: 2) == nil)
        #expect(scheduler.fuzzRange(forIntervalDays: 3) == 2...4)
        #expect(scheduler.fuzzRange(forIntervalDays: 100) == 93...107)  // ±(1 + 0.675 + 1.3 + 4)
        for days in [1, 2, 3, 5, 8, 13, 21, 50, 100, 365, 1_000, 36_500] {
            var seen = Set<Int>()
            for _ in 0..<400 {
                let fuzzed = scheduler.fuzzedInterval(days: days, unit: FSRSScheduler.unitInterval(&random))
                seen.insert(fuzzed)
                guard let range = scheduler.fuzzRange(forIntervalDays: days) else {
                    #expect(fuzzed == days)
                    continue
                }
                // The reference rounds its draw, so max + 1 is reachable (see `fuzzRange`).
                #expect(fuzzed >= range.lowerBound && fuzzed <= min(range.upperBound + 1, 36_500), "\(days) → \(fuzzed)")
            }
            if days >= 8 { #expect(seen.count > 2, "fuzz spreads \(days) d") }
        }
    }

    @Test("fuzz through review: same seed, same schedule; another seed, another one")
    func fuzzDeterministic() throws {
        let scheduler = FSRSScheduler(parameters: try FSRSParameters(enableFuzzing: true))
        let plain = FSRSScheduler(parameters: try FSRSParameters(enableFuzzing: false))
        func dues(seed: UInt64) -> [Date] {
            var random = SeededRandomGenerator(seed: seed)
            return (1...50).map { step in
                let card = reviewCard(scheduler: scheduler, stability: Double(step) * 7)
                return scheduler.review(card, grade: .good, at: start, using: &random).card.due
            }
        }
        #expect(dues(seed: 42) == dues(seed: 42))
        #expect(dues(seed: 42) != dues(seed: 43))
        var first = SeededRandomGenerator(seed: 9)
        var second = SeededRandomGenerator(seed: 9)
        #expect((0..<8).map { _ in first.next() } == (0..<8).map { _ in second.next() })
        // Fuzz only moves the due date, within the range of the unfuzzed interval.
        var random = SeededRandomGenerator(seed: 5)
        for stability in [3.0, 20, 90, 400] {
            let card = reviewCard(scheduler: scheduler, stability: stability)
            let fuzzed = scheduler.review(card, grade: .good, at: start, using: &random).card
            let exact = plain.review(card, grade: .good, at: start, using: &random).card
            #expect(fuzzed.stability == exact.stability && fuzzed.difficulty == exact.difficulty)
            let days = Int((exact.due.timeIntervalSince(start) / 86_400).rounded())
            let got = Int((fuzzed.due.timeIntervalSince(start) / 86_400).rounded())
            let range = try #require(scheduler.fuzzRange(forIntervalDays: days))
            #expect(got >= range.lowerBound && got <= range.upperBound + 1)
        }
    }

    @Test("a desired retention outside 0.70…0.97 is refused, with its reason", arguments: [0.5, 0.69, 0.971, 1.0, .nan])
    func retentionRefused(retention: Double) {
        #expect(throws: FSRSParameterError.self) { try FSRSParameters(desiredRetention: retention) }
        do {
            _ = try FSRSParameters(desiredRetention: retention)
        } catch {
            guard case .retentionOutOfRange = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(error.description.contains("0.70…0.97"))
            #expect(error.description.contains("forgotten"))
        }
    }

    @Test("the edges of the retention range and other bad settings")
    func otherValidation() throws {
        #expect(try FSRSParameters(desiredRetention: 0.70).desiredRetention == 0.70)
        #expect(try FSRSParameters(desiredRetention: 0.97).desiredRetention == 0.97)
        #expect(throws: FSRSParameterError.wrongWeightCount(20)) { try FSRSParameters(weights: Array(repeating: 1, count: 20)) }
        var weights = FSRSParameters.defaultWeights
        weights[20] = 0.9
        #expect(throws: FSRSParameterError.weightOutOfBounds(index: 20, value: 0.9, bounds: 0.1...0.8)) {
            try FSRSParameters(weights: weights)
        }
        #expect(throws: FSRSParameterError.invalidStep(0)) { try FSRSParameters(learningSteps: [60, 0]) }
        #expect(throws: FSRSParameterError.invalidMaximumInterval(0)) { try FSRSParameters(maximumIntervalDays: 0) }
        let defaults = FSRSParameters.default
        #expect(defaults.learningSteps == [60, 600] && defaults.relearningSteps == [600])
        #expect(defaults.desiredRetention == 0.9 && defaults.maximumIntervalDays == 36_500 && defaults.enableFuzzing)
    }

    @Test("an SM-2 card keeps its due date; memory as fsrs-rs memory_state_from_sm2")
    func fromSM2() throws {
        let scheduler = FSRSScheduler()
        let due = Date(timeIntervalSince1970: 1_767_268_800)  // a noon
        let card = try scheduler.card(sm2Repetitions: 5, easeMillis: 2_500, intervalDays: 100, due: due)
        #expect(card.due == due)
        #expect(card.state == .review && card.step == nil)
        #expect(card.lastReview == due.addingTimeInterval(-100 * 86_400))
        // At retention 0.9, stability is the interval itself.
        #expect(abs(try #require(card.stability) - 100) < 1e-9)
        // 11 − 1.5 / (e^w8 · 100^−w9 · (e^(0.1·w10) − 1)), w = FSRS-6 defaults.
        let w = FSRSParameters.defaultWeights
        let expected = 11 - 1.5 / (exp(w[8]) * pow(100, -w[9]) * (exp(0.1 * w[10]) - 1))
        #expect(abs(try #require(card.difficulty) - expected) < 1e-9)
        // Due exactly when SM-2 planned: recall probability is the historical retention then.
        #expect(abs(scheduler.retrievability(of: card, at: due) - 0.9) < 1e-9)
        // Harder cards (lower ease) get a higher difficulty; the clamp holds.
        let hard = try scheduler.card(sm2Repetitions: 3, easeMillis: 1_300, intervalDays: 10, due: due)
        let easy = try scheduler.card(sm2Repetitions: 3, easeMillis: 3_000, intervalDays: 10, due: due)
        #expect(try #require(hard.difficulty) > (try #require(easy.difficulty)))
        #expect((1.0...10.0).contains(try #require(hard.difficulty)))
        // Never reviewed: a new card, still due on its day. A lapse (repetitions 0) is not new.
        let new = try scheduler.card(sm2Repetitions: 0, easeMillis: 2_500, intervalDays: 0, due: due)
        #expect(new == FSRSCard(due: due))
        let lapsed = try scheduler.card(sm2Repetitions: 0, easeMillis: 2_180, intervalDays: 1, due: due)
        #expect(lapsed.state == .review && lapsed.due == due)
        #expect(throws: FSRSParameterError.retentionOutOfRange(0.5)) {
            try scheduler.card(sm2Repetitions: 1, easeMillis: 2_500, intervalDays: 1, due: due, historicalRetention: 0.5)
        }
    }

    @Test("replay equals reviewing step by step, with and without fuzz, and sorts by time")
    func replay() throws {
        for fuzz in [false, true] {
            let scheduler = FSRSScheduler(parameters: try FSRSParameters(enableFuzzing: fuzz))
            var source = SeededRandomGenerator(seed: 3)
            var at = start
            let history: [FSRSReviewEvent] = (0..<300).map { _ in
                at.addTimeInterval(Double(source.next() % 4_000_000))
                return FSRSReviewEvent(grade: ReviewGrade.allCases[Int(source.next() % 4)], at: at)
            }
            var replayRandom = SeededRandomGenerator(seed: 11)
            let replayed = scheduler.replay(history, from: FSRSCard(due: start), using: &replayRandom)
            var stepRandom = SeededRandomGenerator(seed: 11)
            var card = FSRSCard(due: start)
            var cards: [FSRSCard] = []
            var log: [FSRSReviewLogEntry] = []
            for event in history {
                let result = scheduler.review(card, grade: event.grade, at: event.at, using: &stepRandom)
                #expect(result.log.cardBefore == card && result.log.grade == event.grade && result.log.reviewedAt == event.at)
                card = result.card
                cards.append(card)
                log.append(result.log)
            }
            #expect(replayed.card == card)
            #expect(replayed.log == log)
            // Undo: each entry holds the card as the previous review left it.
            #expect(zip(replayed.log.dropFirst(), cards).allSatisfy { $0.cardBefore == $1 })
            var shuffledRandom = SeededRandomGenerator(seed: 11)
            let shuffled = scheduler.replay(history.reversed(), from: FSRSCard(due: start), using: &shuffledRandom)
            #expect(shuffled.card == card)
        }
    }

    @Test("elapsed days are whole days rounded down, as Python's timedelta.days")
    func elapsedDays() {
        let day: TimeInterval = 86_400
        #expect(FSRSTime.elapsedDays(from: start, to: start.addingTimeInterval(day - 0.000_001)) == 0)
        #expect(FSRSTime.elapsedDays(from: start, to: start.addingTimeInterval(day)) == 1)
        #expect(FSRSTime.elapsedDays(from: start, to: start.addingTimeInterval(30 * day - 1)) == 29)
        #expect(FSRSTime.elapsedDays(from: start, to: start.addingTimeInterval(-1)) == -1)
        let scheduler = FSRSScheduler()
        let card = reviewCard(scheduler: scheduler, stability: 10)
        #expect(scheduler.retrievability(of: card, at: card.lastReview!.addingTimeInterval(day - 1)) == 1)
        #expect(scheduler.retrievability(of: FSRSCard(due: start), at: start) == 0)
    }

    @Test("next due for each grade: a new card, and labels")
    func nextDue() throws {
        let scheduler = FSRSScheduler()
        let previews = scheduler.nextDue(for: FSRSCard(due: start), at: start)
        #expect(previews.map(\.grade) == ReviewGrade.allCases)
        #expect(previews.map(\.label) == ["1m", "6m", "10m", "8d"])
        var random = SeededRandomGenerator(seed: 0)
        for preview in previews where preview.grade != .easy {
            #expect(scheduler.review(FSRSCard(due: start), grade: preview.grade, at: start, using: &random).card.due == preview.due)
        }
        let far = FSRSDuePreview(grade: .good, due: start, interval: 548 * 86_400)
        #expect(far.label == "1.5y")
        #expect(FSRSDuePreview(grade: .good, due: start, interval: 5 * 3_600).label == "5h")
    }
}
