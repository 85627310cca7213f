import Foundation
import Logging
import Presentation
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// Writes log lines to a file: never to the screen, which belongs to the UI. Each line is one
/// `write` on an `O_APPEND` descriptor, so lines from two instances never interleave.
struct FileLogHandler: LogHandler {
    private let descriptor: Int32
    private let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    init(descriptor: Int32, label: String, level: Logger.Level) {
        self.descriptor = descriptor
        self.label = label
        self.logLevel = level
    }

    /// Opens (creating with mode 0600) the log file; `nil` if it cannot be opened.
    static func open(path: String) -> Int32? {
        let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        return descriptor >= 0 ? descriptor : nil
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Data in a message (a title, a path) is written with anything unprintable escaped, so
    /// reading the log in a terminal cannot drive it, and one event stays one line.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: TerminalText.isRemoved) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if TerminalText.isRemoved(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let details = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let stamp = Date().formatted(.iso8601)
        let line = "\(stamp) \(event.level) \(label): \(Self.escaped("\(event.message)\(details)"))\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}
