import RemoteStore

/// Remote mode: the store's news goes where it is acted on. A session the server ended goes
/// to the shell (the sign-in screen); outages go to the monitor, whose recovery has the shell
/// read again what it could not.
@MainActor
struct RemoteEventRouting {
    let shell: ShellController
    let outage: OutageMonitor

    /// Wires the monitor to the shell; call once, before `route`. `beforeReading` runs when
    /// the server is back, before the screens read again (the queued writes are sent, so
    /// what they read has them).
    func connect(keyWaitLimit: Duration, beforeReading: (@Sendable () async -> Void)? = nil) {
        shell.outage = outage
        shell.keyWaitLimit = keyWaitLimit
        guard let beforeReading else {
            outage.onRecovered = { [weak shell] in shell?.flow.serverAnswersAgain() }
            return
        }
        outage.onRecovered = { [weak shell] in shell?.flow.serverAnswersAgain(after: beforeReading) }
    }

    /// Routes every event until `events` ends or the calling task is cancelled.
    func route(_ events: AsyncStream<RemoteEvent>) async {
        for await event in events {
            switch event {
            case .sessionEnded: shell.flow.sessionEnded()
            case .unreachable: outage.serverUnreachable()
            case .reachable: outage.serverReachable()
            }
        }
    }
}
