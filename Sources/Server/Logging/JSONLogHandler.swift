import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// swift-log as JSON lines on stderr, one `write` per line so lines from many requests never
/// interleave. Metadata values are strings; nothing secret is ever put in them. The server's
/// executable bootstraps the logging system with it (a library never does).
public struct JSONLogHandler: LogHandler {
    let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]

    public init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: String] = [
            "time": Date().ISO8601Format(.iso8601.time(includingFractionalSeconds: true).year().month().day()),
            "level": event.level.rawValue,
            "message": "\(event.message)",
            "label": label,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            fields[key] = Self.text(value)
        }
        guard var line = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return
        }
        line.append(0x0A)
        line.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private static func text(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let array): "[" + array.map(text).joined(separator: ", ") + "]"
        case .dictionary(let dictionary): "{" + dictionary.map { "\($0.key): \(text($0.value))" }.sorted().joined(separator: ", ") + "}"
        }
    }
}
