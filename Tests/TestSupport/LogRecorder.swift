import Logging
import Synchronization

/// Log lines in memory: `<level> <message> <metadata>`, one string each.
public final class LogRecorder: Sendable {
    private let stored = Mutex<[String]>([])

    public init() {}

    public var lines: [String] { stored.withLock { $0 } }

    public var logger: Logger {
        Logger(label: "test") { _ in Handler(recorder: self) }
    }

    fileprivate func append(_ line: String) {
        stored.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.append("\(event.level) \(event.message) \(event.metadata ?? [:])")
        }
    }
}
