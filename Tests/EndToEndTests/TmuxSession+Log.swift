import Foundation
import TestSupport
import Testing

extension TmuxSession {
    /// Waits until the app's log (`tui.log` in its data directory) has `text`: work the app
    /// does out of sight (remote mode's save for offline) says there when it is done.
    func waitForLog(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let log = dataDirectory.url.appendingPathComponent("tui.log")
        let (_, found) = await Self.poll(seconds: 20, read: { try? String(contentsOf: log, encoding: .utf8) }, until: { $0.contains(text) })
        guard found else {
            Issue.record("never saw \(text.debugDescription) in tui.log", sourceLocation: sourceLocation)
            throw TmuxError.timedOut(text)
        }
    }
}
