import Logging
import Observation
import Presentation
import Terminal
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// The event loop and the render loop. Input and signals wake it through dispatch sources;
/// keys go to the shell's queue; view-model changes schedule one frame through observation;
/// nothing polls.
@MainActor
final class AppRuntime {
    private let terminal: NcursesTerminal
    private let events: TerminalEventLoop
    private let shell: ShellController
    private let logger: Logger
    private var tick = 0
    /// Reading the stored session, at the start.
    private var starting: Task<Void, Never>?
    /// Draws a frame for each request; requests made before it runs draw one frame.
    private var renderLoop: Task<Void, Never>?
    private let renderRequests = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    private var animation: Task<Void, Never>?
    private var statusTimer: Task<Void, Never>?
    private var finished: CheckedContinuation<Void, Never>?
    /// Who ends the app: this actor, or the signal watchdog when this actor is too busy.
    private let exitClaim = ExitClaim()
    /// What must end before the process does when a signal ends it (`q` returns from `run`,
    /// and the caller does the same): remote mode's renewal of the session under way.
    private let beforeExit: (@Sendable () async -> Void)?
    /// Ended by a signal, waiting for `beforeExit` to exit: a second signal cancels it and
    /// ends the process at once.
    private var ending: Task<Void, Never>?

    init(terminal: NcursesTerminal, shell: ShellController, logger: Logger, beforeExit: (@Sendable () async -> Void)? = nil) {
        self.terminal = terminal
        self.events = TerminalEventLoop(terminal: terminal, exitClaim: exitClaim, clock: shell.clock.clock)
        self.shell = shell
        self.logger = logger
        self.beforeExit = beforeExit
    }

    /// Runs until the person quits; the terminal is restored when this returns.
    func run() async {
        shell.onQuit = { [weak self] in self?.stop() }
        shell.terminalSize = terminal.size
        events.start(
            onEvents: { [weak self] events in self?.handle(events) },
            onSignal: { [weak self] signal in self?.terminate(signal: signal) }
        )
        let shell = self.shell
        starting = Task { await shell.start() }
        renderLoop = Task { [weak self, renderRequests] in
            for await _ in renderRequests.stream {
                self?.render()
            }
        }
        render()
        await withCheckedContinuation { continuation in
            finished = continuation
        }
    }

    private func handle(_ events: [InputEvent]) {
        shell.terminalSize = terminal.size
        shell.enqueue(events)
        if events.contains(.resize) { render() }
    }

    private func render() {
        shell.syncVisibleScreen()
        var animating = false
        withObservationTracking {
            terminal.render { canvas in
                animating = shell.draw(in: &canvas, tick: tick)
            }
        } onChange: { [requests = renderRequests.continuation] in
            // One frame, however many changes come before it runs.
            requests.yield()
        }
        shell.frameDrawn(animating: animating)
        if animating { scheduleAnimationFrame() }
        scheduleStatusExpiry()
    }

    /// About ten frames a second while a spinner shows; none otherwise.
    private func scheduleAnimationFrame() {
        guard animation == nil else { return }
        animation = Task { @MainActor [weak self, clock = shell.clock] in
            try? await clock.sleep(for: .milliseconds(100))
            guard let self, !Task.isCancelled else { return }
            self.animation = nil
            self.tick += 1
            self.render()
        }
    }

    /// One frame when the status message on screen is due to go.
    private func scheduleStatusExpiry() {
        statusTimer?.cancel()
        guard let expiry = shell.statusExpiry else { return }
        statusTimer = Task { @MainActor [weak self, clock = shell.clock] in
            try? await clock.sleep(until: expiry)
            guard let self, !Task.isCancelled else { return }
            self.render()
        }
    }

    private func stop() {
        guard exitClaim.claim() else { return }
        events.stop()
        stopTasks()
        terminal.restore()
        logger.info("quit")
        finished?.resume()
        finished = nil
    }

    /// Every task of the runtime and of the shell is cancelled: the app is ending.
    private func stopTasks() {
        starting?.cancel()
        renderLoop?.cancel()
        renderRequests.continuation.finish()
        animation?.cancel()
        statusTimer?.cancel()
        shell.close()
    }

    /// Ctrl-C quits as `q` does; SIGTERM and SIGHUP put the terminal back, then exit as the
    /// signal would have, after `beforeExit` when there is one.
    private func terminate(signal: Int32) {
        if let ending {
            ending.cancel()
            exit(TerminalEventLoop.exitCode(for: signal))
        }
        if signal == SIGINT {
            stop()
            return
        }
        guard exitClaim.claim() else { return }
        logger.notice("terminated by signal \(signal)")
        events.stopInput()
        stopTasks()
        terminal.restore()
        let code = TerminalEventLoop.exitCode(for: signal)
        guard let beforeExit else {
            events.stop()
            exit(code)
        }
        // The terminal is given back first: whoever sent the signal waits on nothing here, and
        // one more signal ends the process at once (the signal sources still run).
        ending = Task {
            await beforeExit()
            exit(code)
        }
    }
}
