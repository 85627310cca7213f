import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The one thing remote mode keeps on disk: the refresh token of the learner signed in to one
/// server, in `<data dir>/sessions/<hash of the URL>.json`, readable by its owner only.
struct SessionFile: Sendable {
    let url: URL
    /// What instances on one data directory hold to refresh this session (`<hash>.lock`).
    let lock: SessionLock

    init(directory: URL, server: URL) {
        let name = SHA256.hash(data: Data(server.absoluteString.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        let folder = directory.appendingPathComponent("sessions", isDirectory: true)
        url = folder.appendingPathComponent("\(name).json")
        lock = SessionLock(url: folder.appendingPathComponent("\(name).lock"))
    }

    private struct Contents: Codable {
        var server: String
        var refreshToken: String
    }

    /// The stored refresh token; nil when there is none or it cannot be read.
    func read() -> String? {
        guard let data = try? Data(contentsOf: url), let contents = try? JSONDecoder().decode(Contents.self, from: data) else { return nil }
        return contents.refreshToken
    }

    /// Replaces the stored token at once: a new file made 0600 from its first byte, then moved
    /// over the old one, so a crash leaves the old token or the new one, never half of one.
    func write(_ refreshToken: String, server: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try JSONEncoder().encode(Contents(server: server.absoluteString, refreshToken: refreshToken))
        // A name no other writer uses, the other instances of this process included.
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
        unlink(temporary.path)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXFailure(call: "open", code: errno) }
        let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0 else {
            unlink(temporary.path)
            throw POSIXFailure(call: "write", code: errno)
        }
        guard rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw POSIXFailure(call: "rename", code: errno)
        }
        removeLeftovers()
    }

    /// Removes the temporary files of writes whose process ended before the move (a kill -9
    /// between open and rename): never read, they would pile up. A file whose process still
    /// runs (another instance writing now, or a pid reused) is left alone, and so is one
    /// younger than a minute: a writer in another pid namespace or on another host (a shared
    /// home) looks dead from here, and its move must still find its file.
    func removeLeftovers(now: Date = Date()) {
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let fields = name.dropFirst(prefix.count).split(separator: ".", maxSplits: 1)
            guard let pid = fields.first.flatMap({ pid_t($0) }), pid > 0 else { continue }
            let path = folder.appendingPathComponent(name).path
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                now.timeIntervalSince(modified) > 60
            else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { unlink(path) }
        }
    }

    func remove() {
        unlink(url.path)
    }

    struct POSIXFailure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call): \(String(cString: strerror(code)))" }
    }
}
