/// Why the terminal could not be used.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    case notInteractive
    case unsupportedTerminal(String)

    public var description: String {
        switch self {
        case .notInteractive:
            "tui needs an interactive terminal"
        case .unsupportedTerminal(let name):
            "tui cannot drive the terminal type \"\(name)\": set TERM to a terminal with cursor addressing, e.g. xterm-256color"
        }
    }
}
