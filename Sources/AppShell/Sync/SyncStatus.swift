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
    /// The enrolled courses being saved for offline, while lessons download.
    private(set) var saving: OfflineSaver.Progress?
    /// How many saved courses the catalog searches, while the server cannot be reached.
    private(set) var savedSearch: Int?
    /// Where a refusal is told (the shell's notices): those reported before it is set (a
    /// queue sent as the app starts) are told once it is.
    @ObservationIgnored var tell: (@MainActor (StatusMessage) -> Void)? {
        didSet {
            guard let tell else { return }
            for message in untold { tell(message) }
            untold = []
        }
    }
    @ObservationIgnored private var untold: [StatusMessage] = []
    /// Has the screens read again: writes queued earlier reached the server.
    @ObservationIgnored var readAgain: @MainActor () -> Void = {}
    /// Has the screens showing a learner's courses read their answers again: answers sent
    /// were checked by the server.
    @ObservationIgnored var answersChecked: @MainActor (UserID, Set<CourseID>) -> Void = { _, _ in }

    func take(_ report: OutboxSync.Report) {
        if waiting != report.waiting { waiting = report.waiting }
        for refusal in report.refusals { say(.error("Not synced: \(refusal.userMessage)")) }
        if let checked = report.checkedAnswers { answersChecked(checked.learner, checked.courses) }
        if report.caughtUp { readAgain() }
    }

    /// Tells the learner now, or as soon as the shell says where.
    func say(_ message: StatusMessage) {
        if let tell { tell(message) } else { untold.append(message) }
    }

    func take(savedSearch count: Int?) {
        if savedSearch != count { savedSearch = count }
    }

    func take(saving progress: OfflineSaver.Progress?) {
        if saving != progress { saving = progress }
    }

    /// The header's words for what waits, else for the courses being saved; nil when neither.
    /// Narrower than `wide`, the arrows and the counts alone, so the tabs keep their room;
    /// words in the accessible mode.
    func headerText(accessible: Bool, wide: Bool = true) -> LocalizedText? {
        if waiting > 0 {
            if accessible { return "changes to sync: \(waiting)" }
            return wide ? "⇡ \(waiting) to sync" : "⇡ \(waiting)"
        }
        guard let saving else { return nil }
        if accessible { return "courses saved for offline: \(saving.saved) of \(saving.of)" }
        return wide ? "⇣ \(saving.saved) of \(saving.of) saved for offline" : "⇣ \(saving.saved)/\(saving.of)"
    }
}
