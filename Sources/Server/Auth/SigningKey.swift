import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The secret that signs access tokens: 256 random bits, made on the first start and kept in
/// the data directory, readable by the server's user only. Never logged.
public enum SigningKey {
    public static let fileName = "access-token.key"

    /// Reads the key file, or creates it (mode 0600, exclusively, so two servers starting at
    /// once on one directory end up with the same key).
    public static func loadOrCreate(in directory: URL) throws -> [UInt8] {
        let path = directory.appendingPathComponent(fileName).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            var key = [UInt8](repeating: 0, count: 32)
            var generator = SystemRandomNumberGenerator()
            for index in key.indices { key[index] = UInt8.random(in: .min ... .max, using: &generator) }
            let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            let synced = fsync(descriptor)
            close(descriptor)
            guard written == key.count, synced == 0 else {
                unlink(path)
                throw SigningKeyError(path: path, reason: "could not write the key")
            }
            return key
        }
        guard errno == EEXIST else { throw SigningKeyError(path: path, reason: String(cString: strerror(errno))) }
        // Only a regular file is read: a device (`/dev/zero`) never ends, a FIFO blocks.
        let kind: URLResourceValues
        do {
            kind = try URL(fileURLWithPath: path).resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
        } catch {
            throw SigningKeyError(path: path, reason: error.localizedDescription)
        }
        guard kind.isRegularFile == true else { throw SigningKeyError(path: path, reason: "not a regular file") }
        guard (kind.fileSize ?? 0) <= 32 else { throw SigningKeyError(path: path, reason: "the file is not a key of 32 bytes") }
        // Another server may be writing it this very moment: a short file is waited for.
        for _ in 0..<50 {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw SigningKeyError(path: path, reason: String(cString: strerror(errno)))
            }
            if data.count == 32 {
                chmod(path, 0o600)
                return [UInt8](data)
            }
            if data.count > 32 { break }
            usleep(20_000)
        }
        throw SigningKeyError(path: path, reason: "the file is not a key of 32 bytes")
    }
}

struct SigningKeyError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "Cannot use the signing key \(path): \(reason)" }
}
