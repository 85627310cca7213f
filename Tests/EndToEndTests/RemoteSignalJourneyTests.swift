import Foundation
import Hummingbird
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// The session's refresh token is used up when the server renews it: an app ended between
    /// the server's answer and the new token stored would leave a used token on disk, which
    /// the next start presents and the server takes for a stolen one (the learner signed out).
    @Suite("Journey: remote mode ended by a signal")
    struct RemoteSignalJourneyTests {
        /// The session the stand-in gives: the sign-in's, with `refresh` as its refresh token.
        static func session(refresh: String) -> String {
            """
            {"access_token": "a", "refresh_token": "\(refresh)", "expires_in": 900,
             "user": {"id": 1, "name": "Demo Learner", "email": "demo@edugo.dev", "role": "learner", "member_since": "2026-01-01T00:00:00Z"}}
            """
        }

        @Test("SIGTERM while the session is being renewed: the terminal is given back, and the renewed token stored before the app ends")
        func signalDuringRenewal() async throws {
            let renewal = Gate()
            let router = Router()
            RouterServer.addSignIn(to: router)
            router.get("/v1/courses") { _, _ in
                RouterServer.json(#"{"courses": [], "next": null, "previous": null, "total": 0, "total_is_lower_bound": false}"#)
            }
            router.post("/v1/sessions/refresh") { _, _ in
                await renewal.wait()
                return RouterServer.json(Self.session(refresh: "renewed"))
            }
            let server = try await RouterServer.start(router)
            let url = server.url
            let client = TemporaryDirectory(prefix: "edugo-e2e-signal")
            defer { client.remove() }
            try await server.stopping {
                let arguments = ["--server", url.absoluteString]
                do {
                    let first = try TmuxSession(arguments: arguments, dataDirectory: client)
                    try await first.signInIfAsked()
                    try await first.waitFor("has no courses yet")
                    try first.send("q")
                    #expect(try await first.waitForExit() == 0)
                }
                // The next start lets the learner the replica knows in, and renews their
                // token behind the first frame: held here until the app has taken the signal.
                let second = try TmuxSession(arguments: arguments, dataDirectory: client)
                await renewal.waitForArrivals(1)
                let pid = try #require(try second.appPID())
                kill(pid, SIGTERM)
                let log = client.url.appendingPathComponent("tui.log")
                let (_, logged) = await TmuxSession.poll(seconds: 20) {
                    try? String(contentsOf: log, encoding: .utf8)
                } until: {
                    $0.contains("terminated by signal \(SIGTERM)")
                }
                #expect(logged, "the app took the signal")
                await renewal.open()

                #expect(try await second.waitForExit() == 128 + SIGTERM)
                #expect(try await second.terminalRestored())
                let sessions = client.url.appendingPathComponent("sessions")
                let stored = try FileManager.default.contentsOfDirectory(atPath: sessions.path).filter { $0.hasSuffix(".json") }
                    .map { try String(contentsOf: sessions.appendingPathComponent($0), encoding: .utf8) }
                #expect(stored.count == 1 && stored.allSatisfy { $0.contains("renewed") }, "the renewed token stored: \(stored)")
            }
        }
    }
}
