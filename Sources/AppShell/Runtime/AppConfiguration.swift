import Foundation

/// What the command line decided, handed to the composition root.
public struct AppConfiguration: Sendable {
    /// How much goes to the log file.
    public enum LogLevel: String, CaseIterable, Sendable {
        case trace, debug, info, notice, warning, error, critical
    }

    public var dataDirectory: URL
    /// `--server URL`: remote mode, the EduGo server as the store; nil for the local database.
    public var server: URL?
    public var conditions: DevelopmentConditions
    public var logLevel: LogLevel
    /// The process environment (TERM, NO_COLOR, ESCDELAY).
    public var environment: [String: String]

    public init(
        dataDirectory: URL, server: URL? = nil, conditions: DevelopmentConditions, logLevel: LogLevel, environment: [String: String]
    ) {
        self.dataDirectory = dataDirectory
        self.server = server
        self.conditions = conditions
        self.logLevel = logLevel
        self.environment = environment
    }
}
