import Foundation

/// What the command line decided, handed to the composition root.
public struct AppConfiguration: Sendable {
    /// How much goes to the log file.
    public enum LogLevel: String, CaseIterable, Sendable {
        case trace, debug, info, notice, warning, error, critical
    }

    public var dataDirectory: URL
    public var conditions: DevelopmentConditions
    public var logLevel: LogLevel
    /// The process environment (TERM, NO_COLOR, ESCDELAY).
    public var environment: [String: String]

    public init(dataDirectory: URL, conditions: DevelopmentConditions, logLevel: LogLevel, environment: [String: String]) {
        self.dataDirectory = dataDirectory
        self.conditions = conditions
        self.logLevel = logLevel
        self.environment = environment
    }
}
