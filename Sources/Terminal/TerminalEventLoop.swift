import Dispatch
import Presentation
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// Wakes the main actor when input is waiting or a signal arrives; never polls, so an idle
/// app uses no CPU. Input is read on the main queue, where every ncurses call happens.
/// SIGINT (Ctrl-C), SIGTERM and SIGHUP are caught on a queue of their own: the main actor is
/// asked to quit, and if it does not within `rescueDelay` (busy, or stuck in a system call),
/// the terminal is restored from there and the process ends, so no signal is ever lost to a
/// busy app.
@MainActor
public final class TerminalEventLoop {
    private let terminal: NcursesTerminal
    private let exitClaim: ExitClaim
    /// Input and resizes, read on the main queue.
    private var sources: [any DispatchSourceProtocol] = []
    /// SIGINT, SIGTERM and SIGHUP, caught on `signalQueue`.
    private var signalSources: [any DispatchSourceProtocol] = []
    private var escapeTimer: Task<Void, Never>?
    /// Hands the signals caught on `signalQueue` to the main actor, in order.
    private var signalDelivery: Task<Void, Never>?
    private var clicks = ClickCounter()
    private let signalQueue = DispatchQueue(label: "edugo.signals")

    /// How long the main actor has to handle a signal before the watchdog does.
    nonisolated static let rescueDelay: Duration = .milliseconds(500)

    /// The app's clock, for the wait after a lone Esc (the signal watchdog keeps real time:
    /// it must act when the app does not).
    private let clock: any Clock<Duration>

    public init(terminal: NcursesTerminal, exitClaim: ExitClaim, clock: any Clock<Duration> = ContinuousClock()) {
        self.terminal = terminal
        self.exitClaim = exitClaim
        self.clock = clock
    }

    /// The exit code for a signal: 0 for Ctrl-C, as for `q`; 128 + the signal otherwise.
    public nonisolated static func exitCode(for signal: Int32) -> Int32 {
        signal == SIGINT ? 0 : 128 + signal
    }

    /// Starts delivering events. `onEvents` gets decoded input and `.resize`; `onSignal` gets
    /// SIGINT, SIGTERM or SIGHUP (also when the terminal closes) and is expected to claim
    /// `exitClaim`, restore the terminal and end.
    public func start(
        onEvents: @escaping @MainActor ([InputEvent]) -> Void,
        onSignal: @escaping @MainActor (Int32) -> Void
    ) {
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.readInput(onEvents: onEvents, onSignal: onSignal) }
        }
        sources.append(input)

        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        let terminal = self.terminal
        resize.setEventHandler {
            MainActor.assumeIsolated {
                terminal.syncSize()
                onEvents([.resize])
            }
        }
        sources.append(resize)

        let (signals, caught) = AsyncStream.makeStream(of: Int32.self)
        signalDelivery = Task {
            for await signal in signals { onSignal(signal) }
        }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signalSources.append(
                Self.signalSource(signalNumber, queue: signalQueue, rescue: terminal.rescue, claim: exitClaim, caught: caught))
        }
        (sources + signalSources).forEach { $0.resume() }
    }

    /// A source whose handler runs on `queue`, not the main actor: it asks the main actor to
    /// handle the signal, then watches that it does.
    private nonisolated static func signalSource(
        _ signalNumber: Int32,
        queue: DispatchQueue,
        rescue: TerminalRescue,
        claim: ExitClaim,
        caught: AsyncStream<Int32>.Continuation
    ) -> any DispatchSourceSignal {
        // Dispatch delivers the signal only when its default action is switched off.
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
        source.setEventHandler { @Sendable in
            caught.yield(signalNumber)
            watch(signal: signalNumber, rescue: rescue, claim: claim)
        }
        return source
    }

    /// On the signal queue: gives the main actor `rescueDelay` to end the app, then does it.
    private nonisolated static func watch(signal: Int32, rescue: TerminalRescue, claim: ExitClaim) {
        let delay = rescueDelay.components
        usleep(useconds_t(delay.seconds * 1_000_000 + delay.attoseconds / 1_000_000_000_000))
        if claim.claim() {
            rescue.restore()
            _exit(exitCode(for: signal))
        }
    }

    private func readInput(onEvents: @escaping @MainActor ([InputEvent]) -> Void, onSignal: @MainActor (Int32) -> Void) {
        escapeTimer?.cancel()
        escapeTimer = nil
        switch terminal.readInput() {
        case .closed:
            // The terminal went away (its window closed): as SIGHUP.
            stop()
            onSignal(SIGHUP)
            return
        case .events(let events):
            let now = ContinuousClock.now
            let counted = events.map { clicks.apply($0, at: now) }
            if !counted.isEmpty { onEvents(counted) }
        }
        guard terminal.hasPendingInput else { return }
        // Bytes that may start a sequence: if nothing follows soon, they were a lone Esc or
        // garbage, and waiting longer must not hold up any key.
        let delay = terminal.escapeDelay
        escapeTimer = Task { @MainActor [weak self, clock] in
            try? await clock.sleep(for: delay)
            guard !Task.isCancelled, let self else { return }
            self.escapeTimer = nil
            let events = self.terminal.flushInput()
            if !events.isEmpty { onEvents(events) }
        }
    }

    /// Stops every source, e.g. before the terminal is restored.
    public func stop() {
        stopInput()
        signalDelivery?.cancel()
        signalDelivery = nil
        signalSources.forEach { $0.cancel() }
        signalSources.removeAll()
    }

    /// Stops reading input and resizes; signals are still delivered (an app that waits for
    /// something before it ends still hears a second signal).
    public func stopInput() {
        escapeTimer?.cancel()
        escapeTimer = nil
        sources.forEach { $0.cancel() }
        sources.removeAll()
    }
}
