import Observation
import Presentation
import SharedKernel

/// What remote mode's outbox says to the shell: the writes waiting for the server, counted in
/// the header (`⇡ 3 to sync`), and the server's refusals of writes queued earlier, told in the
/// footer as they come.
@Observable
@MainActor
final class SyncStatus {
    private(set) var waiting = 0
    /// Where a refusal is told (the shell's notices).
    @ObservationIgnored var tell: @MainActor (StatusMessage) -> Void = { _ in }
    /// Has the screens read again: writes queued earlier reached the server.
    @ObservationIgnored var readAgain: @MainActor () -> Void = {}

    func take(_ report: OutboxSync.Report) {
        if waiting != report.waiting { waiting = report.waiting }
        for refusal in report.refusals { tell(.error("Not synced: \(refusal.userMessage)")) }
        if report.caughtUp { readAgain() }
    }

    /// The header's words for what waits; nil when nothing does. Narrower than `wide`, the
    /// arrow and the count alone, so the tabs keep their room; words in the accessible mode.
    func headerText(accessible: Bool, wide: Bool = true) -> LocalizedText? {
        guard waiting > 0 else { return nil }
        if accessible { return "changes to sync: \(waiting)" }
        return wide ? "⇡ \(waiting) to sync" : "⇡ \(waiting)"
    }
}
