/// Applies the store's news at a pace the server can bear, whatever the rate it comes at: the
/// first news after a quiet spell at once, then what came meanwhile, merged, once the spacing
/// after the last application has passed. The spacing is a second for each read that
/// application may have cost (`StaleMarks.reads`): a lane reads at most once a second on average, and the shell's two (the learner's own news, the catalog's)
/// at most twice, SPEC's budget for an idle terminal. So a flood costs the memory of one
/// `StaleMarks` and one re-read of each thing per spacing, and nothing once it stops.
@MainActor
final class NewsPacer {
    static let spacingPerRead: Duration = .seconds(1)

    private let clock: ShellClock
    private let apply: @MainActor (StaleMarks) -> Void
    private var pending = StaleMarks()
    /// The spacing after the last application, while it runs, and when it ends.
    private var waiting: Task<Void, Never>?
    private var spacingEnds = Duration.zero
    /// Counts spacings: one that ended after `stop` (its task already past its sleep) is not
    /// the current one.
    private var round = 0

    init(clock: ShellClock, apply: @escaping @MainActor (StaleMarks) -> Void) {
        self.clock = clock
        self.apply = apply
    }

    /// Takes `marks` in: applied now if no spacing runs, else with whatever else comes, when
    /// it has passed.
    func add(_ marks: StaleMarks) {
        guard !marks.isEmpty else { return }
        pending.merge(marks)
        if waiting == nil { applyPending() }
    }

    /// Forgets what is pending, and stops waiting: the learner's scope closed, or stopped
    /// following the news.
    func stop() {
        round += 1
        waiting?.cancel()
        waiting = nil
        pending = StaleMarks()
    }

    /// Waits for the application of a spacing that has passed on the clock, if one is due (a
    /// test moved a manual clock past it); returns at once otherwise.
    func settle() async {
        while let waiting, clock.now >= spacingEnds {
            await waiting.value
        }
    }

    /// Whether a spacing that has passed is still to be acted on.
    var isDue: Bool { waiting != nil && clock.now >= spacingEnds }

    /// The spacing after applying `marks`.
    static func spacing(after marks: StaleMarks) -> Duration {
        spacingPerRead * max(1, marks.reads)
    }

    private func applyPending() {
        let marks = pending
        pending = StaleMarks()
        apply(marks)
        round += 1
        // Fixed now, not when the task first runs: the spacing starts with the application.
        spacingEnds = clock.now + Self.spacing(after: marks)
        let (clock, ends, round) = (self.clock, self.spacingEnds, self.round)
        waiting = Task { [weak self] in
            do { try await clock.sleep(until: ends) } catch { return }
            self?.spacingPassed(round)
        }
    }

    private func spacingPassed(_ ended: Int) {
        guard ended == round, waiting != nil else { return }
        waiting = nil
        if !pending.isEmpty { applyPending() }
    }
}
