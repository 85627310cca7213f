import Crypto
import Foundation

/// The `id`s of `GET /v1/me/events`: `<log>-<n>`, where `n` is a change's id in the database's
/// change log and `<log>` names that log (a hash of the database's signing key, which is made
/// with it), so a `Last-Event-ID` of another database is told from one of this one, even with
/// the same `n`. Clients keep them as they are.
struct EventIDs: Sendable {
    /// The longest `Last-Event-ID` read; a longer one is no id of ours.
    static let maximumLength = 128

    let log: String

    init(signingKey: [UInt8]) {
        let digest = SHA256.hash(data: Data("edugo change log".utf8) + Data(signingKey))
        log = digest.prefix(6).map { String(format: "%02x", $0) }.joined()
    }

    func text(_ id: Int64) -> String {
        "\(log)-\(id)"
    }

    /// The change id a `Last-Event-ID` names in this log; nil for one of another log, or no id of ours.
    func position(_ text: String) -> Int64? {
        guard text.utf8.count <= Self.maximumLength, let dash = text.lastIndex(of: "-"), text[..<dash] == log,
            let id = Int64(text[text.index(after: dash)...]), id >= 0
        else { return nil }
        return id
    }
}
