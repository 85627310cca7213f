import Foundation
import TestSupport
import Testing

@testable import RemoteStore

@Suite("Remote session file")
struct SessionFileTests {
    @Test("a write removes the temporary files of writes whose process is gone, and leaves those of live ones and of other servers")
    func leftoversRemoved() throws {
        let directory = TemporaryDirectory(prefix: "edugo-session-file")
        defer { directory.remove() }
        let file = SessionFile(directory: directory.url, server: URL(string: "http://127.0.0.1:8080")!)
        try file.write("first", server: URL(string: "http://127.0.0.1:8080")!)
        let folder = file.url.deletingLastPathComponent()
        let name = file.url.lastPathComponent
        // No process has a pid above the kernel's limit (at most 2^22).
        let dead = ".\(name).99999999.\(UUID().uuidString).tmp"
        let live = ".\(name).\(getpid()).\(UUID().uuidString).tmp"
        let otherServer = ".0123456789abcdef0123456789abcdef.json.99999999.\(UUID().uuidString).tmp"
        for leftover in [dead, live, otherServer] {
            try Data("{}".utf8).write(to: folder.appendingPathComponent(leftover))
        }

        try file.write("second", server: URL(string: "http://127.0.0.1:8080")!)

        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(names == [name, live, otherServer])
        #expect(file.read() == "second")
    }
}
