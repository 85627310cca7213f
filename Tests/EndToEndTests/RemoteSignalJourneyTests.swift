import Foundation
import Hummingbird
import ServerTestSupport
import Synchronization
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

        /// A stand-in server whose renewals wait at `renewal`, and a data directory signed in
        /// on it (one run of the app, ended with `q`); `body` gets the second run, its renewal
        /// held. The renewal is let through on every path out, so the server always stops.
        static func withRenewalHeld(
            _ body: (TmuxSession, TemporaryDirectory, Gate) async throws -> Void
        ) async throws {
            let renewal = Gate()
            let arrived = Mutex(false)
            let router = Router()
            RouterServer.addSignIn(to: router)
            router.get("/v1/courses") { _, _ in
                RouterServer.json(#"{"courses": [], "next": null, "previous": null, "total": 0, "total_is_lower_bound": false}"#)
            }
            router.post("/v1/sessions/refresh") { _, _ in
                arrived.withLock { $0 = true }
                await renewal.wait()
                return RouterServer.json(Self.session(refresh: "renewed"))
            }
            let server = try await RouterServer.start(router)
            let url = server.url
            let client = TemporaryDirectory(prefix: "edugo-e2e-signal")
            defer { client.remove() }
            try await server.stopping {
                do {
                    let arguments = ["--server", url.absoluteString]
                    do {
                        let first = try TmuxSession(arguments: arguments, dataDirectory: client)
                        try await first.signInIfAsked()
                        try await first.waitFor("has no courses yet")
                        try first.send("q")
                        #expect(try await first.waitForExit() == 0)
                    }
                    // The next start lets the learner the replica knows in, and renews their
                    // token behind the first frame.
                    let second = try TmuxSession(arguments: arguments, dataDirectory: client)
                    let (_, renewing) = await TmuxSession.poll(seconds: 20) {
                        arrived.withLock { $0 }
                    } until: {
                        $0
                    }
                    try #require(renewing, "the second start renewed its session")
                    try await body(second, client, renewal)
                } catch {
                    await renewal.open()
                    throw error
                }
                await renewal.open()
            }
        }

        /// Sends `signal` to the app, and returns once its log says it took it.
        static func signal(_ signal: Int32, to session: TmuxSession, logIn client: TemporaryDirectory) async throws {
            let pid = try #require(try session.appPID())
            kill(pid, signal)
            let log = client.url.appendingPathComponent("tui.log")
            let (_, logged) = await TmuxSession.poll(seconds: 20) {
                try? String(contentsOf: log, encoding: .utf8)
            } until: {
                $0.contains("terminated by signal \(signal)")
            }
            try #require(logged, "the app took the signal")
        }

        @Test("SIGTERM while the session is being renewed: the terminal is given back, and the renewed token stored before the app ends")
        func signalDuringRenewal() async throws {
            try await Self.withRenewalHeld { second, client, renewal in
                try await Self.signal(SIGTERM, to: second, logIn: client)
                await renewal.open()

                #expect(try await second.waitForExit() == 128 + SIGTERM)
                #expect(try await second.terminalRestored())
                let sessions = client.url.appendingPathComponent("sessions")
                let stored = try FileManager.default.contentsOfDirectory(atPath: sessions.path).filter { $0.hasSuffix(".json") }
                    .map { try String(contentsOf: sessions.appendingPathComponent($0), encoding: .utf8) }
                #expect(stored.count == 1 && stored.allSatisfy { $0.contains("renewed") }, "the renewed token stored: \(stored)")
            }
        }

        @Test("a second signal while the renewal is awaited ends the app at once")
        func secondSignal() async throws {
            try await Self.withRenewalHeld { second, client, _ in
                try await Self.signal(SIGTERM, to: second, logIn: client)
                let pid = try #require(try second.appPID(), "still waiting for the renewal")
                kill(pid, SIGHUP)

                #expect(try await second.waitForExit() == 128 + SIGHUP, "ended by the second signal, the renewal still held")
                #expect(try await second.terminalRestored())
            }
        }
    }
}
