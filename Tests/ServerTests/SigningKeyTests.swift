import Foundation
import TestSupport
import Testing

@testable import Server

#if canImport(Glibc)
import Glibc
#endif

/// A key file that is not one is refused with the reason, never read for ever (issue 22).
@Suite("Signing key file")
struct SigningKeyTests {
    enum Placed: String, CaseIterable, Sendable {
        case deviceOfZeros = "a link to /dev/zero"
        case fifo = "a FIFO"
        case directory = "a directory"
        case longFile = "a file of 1 MiB"
    }

    @Test("a key file that is not a regular file of 32 bytes is refused with why", arguments: Placed.allCases)
    func refused(_ placed: Placed) throws {
        let directory = TemporaryDirectory(prefix: "edugo-signing-key")
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent(SigningKey.fileName).path
        switch placed {
        case .deviceOfZeros: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        case .fifo: #expect(mkfifo(path, 0o600) == 0)
        case .directory: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .longFile: try Data(count: 1 << 20).write(to: URL(fileURLWithPath: path))
        }

        let error = #expect(throws: SigningKeyError.self) { try SigningKey.loadOrCreate(in: directory.url) }

        let expected = placed == .longFile ? "not a key of 32 bytes" : "not a regular file"
        #expect(error?.description.contains(expected) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("File exists") == false)
    }

    @Test("a key is made once, 0600, and read back the same")
    func madeOnce() throws {
        let directory = TemporaryDirectory(prefix: "edugo-signing-key")
        defer { directory.remove() }

        let made = try SigningKey.loadOrCreate(in: directory.url)
        let read = try SigningKey.loadOrCreate(in: directory.url)

        #expect(made == read && made.count == 32)
    }
}
