import Foundation

extension FSRSScheduler {
    /// An FSRS card for an SM-2 card that has no review log, mapped as Anki maps one.
    ///
    /// Source: fsrs-rs `FSRS::memory_state_from_sm2(ease_factor, interval, sm2_retention)`
    /// (src/inference.rs, FSRS-6 version), which Anki calls from rslib
    /// `scheduler/fsrs/memory_state.rs` (`Card::set_memory_state`) with `ease_factor` = the
    /// card's factor / 1000, `interval` = its interval in days, and `sm2_retention` = the
    /// deck's "historical retention" (default 0.9). It assumes SM-2 scheduled the interval
    /// where recall had fallen to that retention, and that the interval's growth (the ease)
    /// was FSRS's stability increase after a "good" at that retention:
    ///
    ///     S = max(interval, 0.001) · factor / (r^(1/decay) − 1)   (= interval when r = 0.9)
    ///     D = 11 − (ease − 1) / (e^w8 · S^−w9 · (e^((1 − r) · w10) − 1)),  clamped to 1…10
    ///
    /// with decay = −w20 and factor = 0.9^(1/decay) − 1. fsrs-rs computes in `f32`; this uses
    /// `Double`. Anki leaves a card new when its interval is 0 or it was never reviewed; here
    /// `intervalDays <= 0` is the only test, because the app's `repetitions` counts the run of
    /// recalls and is 0 after a lapse too (interval 1), which is a reviewed card. So
    /// `repetitions` does not enter the mapping; it is taken to keep call sites explicit.
    ///
    /// The card keeps its due instant; its last review is put `intervalDays` before it, which
    /// is what SM-2 did, so elapsed days and recall probability come out as SM-2 planned.
    public func card(
        sm2Repetitions repetitions: Int,
        easeMillis: Int,
        intervalDays: Int,
        due: Date,
        historicalRetention: Double = 0.9
    ) throws(FSRSParameterError) -> FSRSCard {
        try FSRSParameters.validate(retention: historicalRetention)
        guard intervalDays > 0 else { return FSRSCard(due: due) }
        let w = model.w
        let r = historicalRetention
        let stability =
            max(Double(intervalDays), FSRSModel.minimumStability) * model.factor
            / (pow(r, 1 / model.decay) - 1)
        let ease = Double(easeMillis) / 1000
        let difficulty = 11 - (ease - 1) / (exp(w[8]) * pow(stability, -w[9]) * expm1((1 - r) * w[10]))
        return FSRSCard(
            state: .review,
            step: nil,
            stability: stability,
            difficulty: min(max(difficulty, 1), 10),
            due: due,
            lastReview: due.addingTimeInterval(-Double(intervalDays) * FSRSTime.secondsPerDay)
        )
    }
}
