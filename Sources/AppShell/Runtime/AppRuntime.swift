import Logging
import Observation
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
    private var renderScheduled = false
    private var tick = 0
    private var animation: Task<Void, Never>?
    private var statusTimer: Task<Void, Never>?
    private var finished: CheckedContinuation<Void, Never>?
    /// Who ends the app: this actor, or the signal watchdog when this actor is too busy.
    private let exitClaim = ExitClaim()

    init(terminal: NcursesTerminal, shell: ShellController, logger: Logger) {
        self.terminal = terminal
        self.events = TerminalEventLoop(terminal: terminal, exitClaim: exitClaim)
        self.shell = shell
        self.logger = logger
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
        Task { await shell.start() }
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

    /// Schedules one frame; many changes before it runs still draw once.
    private func setNeedsRender() {
        guard !renderScheduled else { return }
        renderScheduled = true
        Task { @MainActor [weak self] in self?.render() }
    }

    private func render() {
        renderScheduled = false
        shell.syncVisibleScreen()
        var animating = false
        withObservationTracking {
            terminal.render { canvas in
                animating = shell.draw(in: &canvas, tick: tick)
            }
        } onChange: { [weak self] in
            Task { @MainActor [weak self] in self?.setNeedsRender() }
        }
        if animating { scheduleAnimationFrame() }
        scheduleStatusExpiry()
    }

    /// About ten frames a second while a spinner shows; none otherwise.
    private func scheduleAnimationFrame() {
        guard animation == nil else { return }
        animation = Task { @MainActor [weak self] in
            try? await Task.sleep(for: .milliseconds(100))
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
        statusTimer = Task { @MainActor [weak self] in
            try? await Task.sleep(until: expiry, clock: .continuous)
            guard let self, !Task.isCancelled else { return }
            self.render()
        }
    }

    private func stop() {
        guard exitClaim.claim() else { return }
        events.stop()
        animation?.cancel()
        statusTimer?.cancel()
        terminal.restore()
        logger.info("quit")
        finished?.resume()
        finished = nil
    }

    /// Ctrl-C quits as `q` does; SIGTERM and SIGHUP put the terminal back, then exit as the
    /// signal would have.
    private func terminate(signal: Int32) {
        if signal == SIGINT {
            stop()
            return
        }
        guard exitClaim.claim() else { return }
        logger.notice("terminated by signal \(signal)")
        events.stop()
        terminal.restore()
        exit(TerminalEventLoop.exitCode(for: signal))
    }
}
