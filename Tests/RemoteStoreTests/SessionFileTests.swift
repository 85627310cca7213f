import Foundation
import TestSupport
import Testing

@testable import RemoteStore

@Suite("Remote session file")
struct SessionFileTests {
    @Test(
        "a write removes the temporary files of writes whose process is gone, and leaves those of live ones, young ones and other servers'")
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
        // A dead pid's file younger than a minute may be another pid namespace's, mid-write.
        let young = ".\(name).99999998.\(UUID().uuidString).tmp"
        let otherServer = ".0123456789abcdef0123456789abcdef.json.99999999.\(UUID().uuidString).tmp"
        let twoMinutesAgo = Date().addingTimeInterval(-120)
        for leftover in [dead, live, young, otherServer] {
            let path = folder.appendingPathComponent(leftover)
            try Data("{}".utf8).write(to: path)
            if leftover != young { try FileManager.default.setAttributes([.modificationDate: twoMinutesAgo], ofItemAtPath: path.path) }
        }

        try file.write("second", server: URL(string: "http://127.0.0.1:8080")!)

        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(names == [name, live, young, otherServer])
        #expect(file.read() == "second")
    }
}
