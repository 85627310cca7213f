import Testing

@testable import AppShell

/// The header names the store from 80 columns: a data directory short enough to fit.
@Suite("The store's name in the header")
struct StoreLabelTests {
    @Test(
        "the home directory as ~, a long path by its first and last parts; a short one whole",
        arguments: [
            ("/home/ana/.local/share/edugo", "~/…/edugo"), ("/home/ana/edugo", "~/edugo"), ("/tmp/x1", "/tmp/x1"),
            ("/var/lib/edugo-terminal/learners/ana", "/var/…/ana"), ("/home/anabel/x", "/home/anabel/x"), ("/home/ana", "~"),
        ])
    func shortened(path: String, expected: String) {
        #expect(StoreLabel.shortened(path, home: "/home/ana") == expected)
    }

    @Test("a server by host and port, with whether it answers")
    func server() {
        #expect(StoreLabel.server(host: "127.0.0.1:8080").status(isReconnecting: false) == "127.0.0.1:8080 ●")
        #expect(StoreLabel.server(host: "127.0.0.1:8080").status(isReconnecting: true) == "127.0.0.1:8080 ⚠")
        #expect(StoreLabel.local(path: "").status(isReconnecting: false) == nil)
    }
}
