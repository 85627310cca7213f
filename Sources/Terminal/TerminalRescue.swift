import CNcurses
import CTerminalGuard
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Puts the terminal back without ncurses, from any thread: for a signal that arrives while
/// the main actor is too busy to restore it the normal way. Everything it writes was looked up
/// when the terminal was set up, so restoring is two system calls.
public struct TerminalRescue: Sendable {
    /// The terminal modes from before the app started.
    private let modes: termios
    /// Leaves the alternate screen, shows the cursor, resets attributes, the keypad and mouse
    /// reporting.
    private let sequence: [UInt8]

    init(modes: termios, sequence: [UInt8]) {
        self.modes = modes
        self.sequence = sequence
    }

    /// The terminfo strings of the current terminal that undo what the app switched on.
    @MainActor
    static func sequence() -> [UInt8] {
        var bytes: [UInt8] = []
        for name in ["sgr0", "rmkx", "rmcup", "cnorm"] {
            guard let value = tigetstr(name), Int(bitPattern: value) > 0 else { continue }
            bytes += Array(String(cString: value).utf8)
        }
        // Mouse reporting as ncurses switches it on (normal, button-event and SGR modes).
        bytes += Array("\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l\r\n".utf8)
        return bytes
    }

    /// Arms the fatal-signal guard with this rescue: a trap or a bad pointer from here on
    /// still gives the terminal back before the process dies.
    func armFatalSignalGuard() {
        var modes = self.modes
        sequence.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { edugo_guard_arm($0.baseAddress, $0.count, &modes) }
        }
    }

    func disarmFatalSignalGuard() {
        edugo_guard_disarm()
    }

    /// Writes the reset sequence and restores the saved modes. Async-signal-safe system calls only.
    public func restore() {
        sequence.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(STDOUT_FILENO, start + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        var modes = self.modes
        tcsetattr(STDIN_FILENO, TCSANOW, &modes)
    }
}

/// Decides once who restores the terminal and ends the process: the main actor, the normal
/// way, or a signal watchdog when the main actor does not get to it.
public final class ExitClaim: Sendable {
    private let claimed = Atomic<Bool>(false)

    public init() {}

    /// True for the first caller only.
    public func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
}
