/// How the terminal is set up, read from the environment by the caller.
public struct TerminalOptions: Sendable {
    /// `TERM`; `nil`, empty or `dumb` cannot be driven.
    public var terminalType: String?
    /// `NO_COLOR` set to anything non-empty turns colours off (no-color.org).
    public var noColor: Bool
    /// `ESCDELAY` was set by the user, so their value is kept.
    public var userSetEscapeDelay: Bool

    public init(terminalType: String?, noColor: Bool, userSetEscapeDelay: Bool) {
        self.terminalType = terminalType
        self.noColor = noColor
        self.userSetEscapeDelay = userSetEscapeDelay
    }

    /// Reads the options from a process environment.
    public init(environment: [String: String]) {
        self.init(
            terminalType: environment["TERM"],
            noColor: !(environment["NO_COLOR"] ?? "").isEmpty,
            userSetEscapeDelay: environment["ESCDELAY"] != nil
        )
    }
}
