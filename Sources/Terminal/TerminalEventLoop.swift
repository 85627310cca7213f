import Dispatch
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// Wakes the main actor when input is waiting or a signal arrives; never polls, so an idle
/// app uses no CPU. Dispatch sources on the main queue keep every ncurses call on the main
/// thread.
@MainActor
public final class TerminalEventLoop {
    private let terminal: NcursesTerminal
    private var sources: [any DispatchSourceProtocol] = []

    public init(terminal: NcursesTerminal) {
        self.terminal = terminal
    }

    /// Starts delivering events. `onEvents` gets decoded input and `.resize`; `onTerminate`
    /// gets SIGINT, SIGTERM or SIGHUP and is expected to restore the terminal and exit.
    public func start(
        onEvents: @escaping @MainActor ([InputEvent]) -> Void,
        onTerminate: @escaping @MainActor (Int32) -> Void
    ) {
        let terminal = self.terminal
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler {
            MainActor.assumeIsolated {
                let events = terminal.readInput()
                if !events.isEmpty { onEvents(events) }
            }
        }
        sources.append(input)

        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        resize.setEventHandler {
            MainActor.assumeIsolated {
                terminal.syncSize()
                onEvents([.resize])
            }
        }
        sources.append(resize)

        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            // Dispatch delivers the signal only when its default action is switched off.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated { onTerminate(signalNumber) }
            }
            sources.append(source)
        }
        sources.forEach { $0.resume() }
    }

    /// Stops every source, e.g. before the terminal is restored.
    public func stop() {
        sources.forEach { $0.cancel() }
        sources.removeAll()
    }
}
