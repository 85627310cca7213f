import Foundation
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 22, item 7/8: two `tui --server` on one data directory share its session file.
    /// Each refresh takes the file's lock and presents the token stored at that moment, so one
    /// rotation serves the other and reuse detection never signs them out.
    @Suite("Journey: remote mode, two terminals on one data directory")
    struct RemoteSharedSessionJourneyTests {
        @Test("two tui --server started together on one stored session, tokens of 1 s, 5 rounds: both stay signed in")
        func twoTerminalsOneSession() async throws {
            let server = try await ServerProcess(
                directory: try await ServerProcess.preparedDirectory(), arguments: ["--access-token-ttl", "1"])
            defer {
                server.signal(SIGKILL)
                server.directory.remove()
            }
            let client = TemporaryDirectory(prefix: "edugo-e2e-shared")
            defer { client.remove() }
            let arguments = ["--server", server.baseURL.absoluteString]
            do {
                let session = try TmuxSession(arguments: arguments, dataDirectory: client)
                try await session.signInIfAsked()
                try await session.waitFor("Catalog  64 courses")
                try session.send("q")
                #expect(try await session.waitForExit() == 0)
            }

            for round in 1...5 {
                // Started together: both restore the stored session at once (each refreshes).
                let first = try TmuxSession(arguments: arguments, dataDirectory: client)
                let second = try TmuxSession(arguments: arguments, dataDirectory: client)
                for terminal in [first, second] {
                    let screen = try await terminal.waitFor("round \(round): the catalog or the sign-in screen") { lines in
                        lines.contains { $0.contains("Catalog  64 courses") || $0.contains("Sign in to EduGo") }
                    }
                    #expect(!screen.contains { $0.contains("Sign in to EduGo") }, "round \(round): the stored session was restored")
                }
                // Then both read the learner's courses at once, their 1 s tokens expired by now.
                try first.send("2", "r")
                try second.send("2", "r")
                for terminal in [first, second] {
                    let screen = try await terminal.waitFor("round \(round): My courses, or the session ended") { lines in
                        lines.contains {
                            $0.contains("My courses  2 enrolled") || $0.contains("Your session has ended")
                                || $0.contains("Sign in to EduGo")
                        }
                    }
                    #expect(
                        !screen.contains { $0.contains("Your session has ended") || $0.contains("Sign in to EduGo") },
                        "round \(round): still signed in")
                }
                try first.send("C-c")
                try second.send("C-c")
                #expect(try await first.waitForExit() == 0)
                #expect(try await second.waitForExit() == 0)
            }
            let refreshes = server.log.components(separatedBy: "/v1/sessions/refresh").count - 1
            #expect(refreshes >= 10, "every start refreshed: \(refreshes) refreshes")
        }
    }
}
