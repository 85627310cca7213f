import Observation
import SharedKernel

/// Remote mode's answer to a server that cannot be reached (SPEC, "Remote mode"): asks the
/// server's `/health` again by itself after 1 s, then every 2 s, says when on screen, and once
/// the server answers has the screen in front read its data again. Keys are never held for it.
@Observable
@MainActor
final class OutageMonitor {
    /// The server as the learner knows it (`host:port`).
    let host: String
    /// When the next try is due, on the shell's clock; nil while the server answers.
    private(set) var retryAt: Duration?
    @ObservationIgnored private var attempt = 0
    @ObservationIgnored private var retrying: Task<Void, Never>?
    @ObservationIgnored private let probe: @Sendable () async -> Bool
    @ObservationIgnored private let delay: @Sendable (Int) -> Duration
    @ObservationIgnored private let clock: ShellClock
    /// Called when the server answers again.
    @ObservationIgnored var onRecovered: @MainActor () -> Void = {}

    init(
        host: String,
        clock: ShellClock,
        probe: @escaping @Sendable () async -> Bool,
        delay: @escaping @Sendable (Int) -> Duration = OutageMonitor.backoff
    ) {
        self.host = host
        self.clock = clock
        self.probe = probe
        self.delay = delay
    }

    /// 1 s, then 2 s between tries: a try is one `GET /health`, cheap for the server, and a
    /// server back is seen within 2 s (a longer backoff left the learner waiting 11–14 s while
    /// `r` took 0.14 s).
    nonisolated static func backoff(afterFailures failures: Int) -> Duration {
        .seconds(failures == 0 ? 1 : 2)
    }

    /// A request found the server unusable: the first try is due in a second.
    func serverUnreachable() {
        guard retryAt == nil else { return }
        attempt = 0
        schedule()
    }

    /// A request (a try, or anything the learner did) got an answer.
    func serverReachable() {
        guard retryAt != nil else { return }
        retrying?.cancel()
        retrying = nil
        retryAt = nil
        onRecovered()
    }

    /// `Cannot reach <host> — retrying in Ns`, while the server cannot be reached; `short`:
    /// `Offline — retrying in Ns`, for a footer whose keys need the room (the header names
    /// the host).
    func message(at now: Duration, short: Bool = false) -> LocalizedText? {
        guard let retryAt else { return nil }
        let left = max(0, (retryAt - now).components.seconds) + ((retryAt - now).components.attoseconds > 0 ? 1 : 0)
        if short { return left > 0 ? "Offline — retrying in \(Int(left))s" : "Offline — retrying now" }
        return left > 0 ? "Cannot reach \(host) — retrying in \(Int(left))s" : "Cannot reach \(host) — retrying now"
    }

    func stop() {
        retrying?.cancel()
        retrying = nil
    }

    private func schedule() {
        let due = clock.now + delay(attempt)
        retryAt = due
        retrying?.cancel()
        retrying = Task { [weak self, probe, clock] in
            try? await clock.sleep(until: due)
            guard !Task.isCancelled else { return }
            let answered = await probe()
            guard let self, !Task.isCancelled else { return }
            if answered {
                self.serverReachable()
            } else {
                self.attempt += 1
                self.schedule()
            }
        }
    }
}
