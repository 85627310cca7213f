/// Applies the store's news at a pace the server can bear, whatever the rate it comes at: the
/// first news after a quiet spell at once, then what came meanwhile, merged, at most once a
/// spacing. The spacing grows (250 ms, 1 s, then 5 s) while news keeps coming, and is back to
/// 250 ms once a spacing passes without any. So a flood costs one re-read of each thing per
/// spacing and the memory of one `StaleMarks`, and stops costing anything when it stops: an
/// idle terminal on the catalog, flooded with every kind of news, reads 35 times in the first
/// 20 s and 1.2 times a second after (`NewsFloodTests`), within SPEC's 2 a second.
@MainActor
final class NewsPacer {
    /// The spacing after a quiet spell, and its growth while news keeps coming, up to the longest.
    static let shortestSpacing: Duration = .milliseconds(250)
    static let growth = 4
    static let longestSpacing: Duration = .seconds(5)

    private let clock: ShellClock
    private let apply: @MainActor (StaleMarks) -> Void
    private var pending = StaleMarks()
    private var spacing = NewsPacer.shortestSpacing
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

    /// Takes `marks` in: applied now if nothing was applied within the spacing, else with
    /// whatever else comes, when it has passed.
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
        spacing = Self.shortestSpacing
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

    private func applyPending() {
        let marks = pending
        pending = StaleMarks()
        apply(marks)
        round += 1
        // Fixed now, not when the task first runs: the spacing starts with the application.
        spacingEnds = clock.now + spacing
        let (clock, ends, round) = (self.clock, self.spacingEnds, self.round)
        waiting = Task { [weak self] in
            do { try await clock.sleep(until: ends) } catch { return }
            self?.spacingPassed(round)
        }
    }

    private func spacingPassed(_ ended: Int) {
        guard ended == round, waiting != nil else { return }
        waiting = nil
        guard !pending.isEmpty else {
            spacing = Self.shortestSpacing
            return
        }
        spacing = min(spacing * Self.growth, Self.longestSpacing)
        applyPending()
    }
}
