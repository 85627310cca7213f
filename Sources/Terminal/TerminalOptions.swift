import Presentation
import TerminalUI

/// How the terminal is set up, read from the environment by the caller.
public struct TerminalOptions: Sendable {
    /// `TERM`; `nil`, empty or `dumb` cannot be driven.
    var terminalType: String?
    /// `NO_COLOR` set to anything non-empty turns colours off (no-color.org).
    var noColor: Bool
    /// `ESCDELAY` in milliseconds when the user set it; else the app's own short delay.
    var escapeDelayMilliseconds: Int?
    /// Whether links are sent as OSC 8 hyperlinks (`Hyperlinks.supported`).
    var hyperlinks: Bool
    /// Whether each frame is bracketed by marks a test's terminal can read
    /// (`EDUGO_FRAME_MARKS=1`; see `edugo_mark_frame`).
    var frameMarks: Bool
    /// The colours of each role (`NO_COLOR` still wins: `Theme.mono`).
    public var theme: Theme

    public init(
        terminalType: String?, noColor: Bool, escapeDelayMilliseconds: Int? = nil, hyperlinks: Bool = false, frameMarks: Bool = false,
        theme: Theme = .standard
    ) {
        self.terminalType = terminalType
        self.noColor = noColor
        self.escapeDelayMilliseconds = escapeDelayMilliseconds
        self.hyperlinks = hyperlinks
        self.frameMarks = frameMarks
        self.theme = theme
    }

    /// Reads the options from a process environment.
    public init(environment: [String: String], theme: Theme = .standard) {
        self.init(
            terminalType: environment["TERM"],
            noColor: !(environment["NO_COLOR"] ?? "").isEmpty,
            // ncurses' range for ESCDELAY; anything else is ignored.
            escapeDelayMilliseconds: environment["ESCDELAY"].flatMap { Int($0) }.flatMap { (1...10_000).contains($0) ? $0 : nil },
            hyperlinks: Hyperlinks.supported(environment: environment),
            frameMarks: environment["EDUGO_FRAME_MARKS"] == "1",
            theme: theme
        )
    }
}
