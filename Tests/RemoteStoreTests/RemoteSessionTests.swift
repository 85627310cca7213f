import Foundation
import GRDB
import RemoteStore
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import Storage

/// The learner's session against a real server: refreshed without the learner noticing,
/// once for many callers, rotated, and ended cleanly when the server refuses it.
@Suite("Remote sessions")
struct RemoteSessionTests {
    /// A server, a client directory and a store signed in as the demo learner.
    struct Signed {
        let server: InProcessServer
        let client: TemporaryDirectory
        let store: RemoteStore
        let learner: User
        let serverClock: TestClock
        let clientClock: TestClock

        static func start(accessTokenTTL: Int = 900) async throws -> Signed {
            let serverClock = TestClock()
            let clientClock = TestClock()
            let server = try await InProcessServer.start(accessTokenTTL: accessTokenTTL, clock: serverClock)
            let client = TemporaryDirectory(prefix: "edugo-remote-client")
            let store = RemoteStore(
                server: server.url, dataDirectory: client.url, httpClient: testHTTPClient, now: { clientClock.now },
                timeLimitClock: ManualClock())
            let learner = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo")
            return Signed(
                server: server, client: client, store: store, learner: learner, serverClock: serverClock, clientClock: clientClock)
        }

        /// Runs `body` with a store signed in, then stops the server and removes both
        /// directories, however `body` ends: the test waits for its cleanup.
        static func withSignedIn(accessTokenTTL: Int = 900, _ body: (Signed) async throws -> Void) async throws {
            let signed = try await start(accessTokenTTL: accessTokenTTL)
            do {
                try await body(signed)
            } catch {
                await signed.finish()
                throw error
            }
            await signed.finish()
        }

        func finish() async {
            await server.stop()
            server.directory.remove()
            client.remove()
        }

        /// The one session file of this client.
        var sessionFile: URL {
            get throws {
                let folder = client.url.appendingPathComponent("sessions")
                let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
                guard names.count == 1 else { throw ServerTestError("session files: \(names)") }
                return folder.appendingPathComponent(names[0])
            }
        }
    }

    /// Ten reads at once, all of which must succeed.
    static func tenReads(_ signed: Signed) async throws {
        try await withThrowingTaskGroup(of: User.self) { group in
            for _ in 0..<10 { group.addTask { try await signed.store.user(id: signed.learner.id) } }
            for try await user in group { #expect(user.id == signed.learner.id) }
        }
    }

    @Test("ten calls that the server finds expired share one refresh, and all succeed")
    func expiredAtServer() async throws {
        try await Signed.withSignedIn { signed async throws in
            signed.serverClock.advance(by: 3_600)
            try await Self.tenReads(signed)
            #expect(await signed.store.refreshCount == 1)
        }
    }

    @Test("ten calls that find the token about to expire share one refresh before they go")
    func expiredHere() async throws {
        try await Signed.withSignedIn { signed async throws in
            signed.clientClock.advance(by: 3_600)
            try await Self.tenReads(signed)
            #expect(await signed.store.refreshCount == 1)
            try await Self.tenReads(signed)
            #expect(await signed.store.refreshCount == 1, "the new token lasts")
        }
    }

    @Test("a refresh rotates the stored token: the old one, presented again, ends the whole sign-in")
    func rotation() async throws {
        try await Signed.withSignedIn { signed async throws in
            let file = try signed.sessionFile
            let before = try Data(contentsOf: file)
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)

            signed.clientClock.advance(by: 3_600)
            _ = try await signed.store.user(id: signed.learner.id)
            let after = try Data(contentsOf: file)
            #expect(after != before, "a new refresh token is stored")
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)

            // A copy of the old token (a thief's) is presented: the server ends the sign-in.
            let thief = TemporaryDirectory(prefix: "edugo-remote-thief")
            defer { thief.remove() }
            let stolen = thief.url.appendingPathComponent("sessions/\(file.lastPathComponent)")
            try FileManager.default.createDirectory(at: stolen.deletingLastPathComponent(), withIntermediateDirectories: true)
            try before.write(to: stolen)
            #expect(
                try await RemoteStore(
                    server: signed.server.url, dataDirectory: thief.url, httpClient: testHTTPClient, timeLimitClock: ManualClock()
                ).restoreSession()
                    == nil)

            // The learner's own next refresh is refused too: their session has ended.
            signed.clientClock.advance(by: 3_600)
            await #expect(throws: AppError.sessionEnded) { try await signed.store.user(id: signed.learner.id) }
        }
    }

    @Test("a refused refresh ends the session: the app is told once, the file is gone, calls say signed out")
    func refusedRefresh() async throws {
        try await Signed.withSignedIn { signed async throws in
            var events = signed.store.events.makeAsyncIterator()
            // The server forgets every sign-in (as a new data directory would).
            try await signed.server.database.writer.write { try $0.execute(sql: "DELETE FROM refresh_token") }
            signed.serverClock.advance(by: 3_600)

            await #expect(throws: AppError.sessionEnded) { try await signed.store.user(id: signed.learner.id) }
            #expect(await events.next() == .sessionEnded)
            let folder = signed.client.url.appendingPathComponent("sessions")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            // What stays is the refresh lock, which holds nothing.
            #expect(files.filter { !$0.hasSuffix(".lock") }.isEmpty, "the refresh token is forgotten: \(files)")
            #expect(try files.allSatisfy { try Data(contentsOf: folder.appendingPathComponent($0)).isEmpty })
            await #expect(throws: AppError.notSignedIn) { try await signed.store.favourites(userID: signed.learner.id) }
            #expect(try await signed.store.restoreSession() == nil)
        }
    }

    @Test("a restart of the app restores the session from the stored refresh token")
    func restore() async throws {
        try await Signed.withSignedIn { signed async throws in
            let again = RemoteStore(
                server: signed.server.url, dataDirectory: signed.client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
            #expect(try await again.restoreSession()?.id == signed.learner.id)
            #expect(try await again.favourites(userID: signed.learner.id).isEmpty)
        }
    }

    @Test("a restart with the server down lets the learner a replica knows in; their first call once it is back renews the token")
    func restoreOffline() async throws {
        let directory = TemporaryDirectory(prefix: "edugo-remote-tests")
        let first = try await InProcessServer.start(directory: directory)
        let client = TemporaryDirectory(prefix: "edugo-remote-client")
        defer {
            directory.remove()
            client.remove()
        }
        let signedIn = RemoteStore(server: first.url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
        let learner = try await signedIn.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        await first.stop()

        let again = RemoteStore(server: first.url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
        await #expect("nobody known: the server's absence, as before") {
            _ = try await again.restoreSession(knowing: nil)
        } throws: {
            Self.isAbsence($0)
        }
        #expect(try await again.restoreSession(knowing: learner)?.id == learner.id, "known: let in")
        await #expect {
            try await again.favourites(userID: learner.id)
        } throws: {
            Self.isAbsence($0)
        }
        await #expect(throws: AppError.notSignedIn, "only the learner let in") { try await again.favourites(userID: UserID(999)) }

        let back = try await InProcessServer.start(directory: directory, port: first.port)
        let tries = await again.refreshCount
        do {
            #expect(try await again.favourites(userID: learner.id).isEmpty, "renewed on the first call")
            #expect(try await again.user(id: learner.id).id == learner.id)
        } catch {
            await back.stop()
            throw error
        }
        await back.stop()
        #expect(await again.refreshCount == tries + 1, "renewed once, then its token used")
    }

    @Test("a restart with the server up lets the learner a replica knows in at once; a session the server ended says so on the renewal")
    func restoreKnownAtOnce() async throws {
        try await Signed.withSignedIn { signed async throws in
            let again = RemoteStore(
                server: signed.server.url, dataDirectory: signed.client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
            #expect(try await again.restoreSession(knowing: signed.learner)?.id == signed.learner.id, "let in before any renewal")
            #expect(try await again.favourites(userID: signed.learner.id).isEmpty, "the renewal under way serves the first call")
            #expect(await again.refreshCount == 1, "renewed once")

            // The server forgets every sign-in: the next restart still lets them in, then says it ended.
            try await signed.server.database.writer.write { try $0.execute(sql: "DELETE FROM refresh_token") }
            let third = RemoteStore(
                server: signed.server.url, dataDirectory: signed.client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
            var events = third.events.makeAsyncIterator()
            #expect(try await third.restoreSession(knowing: signed.learner)?.id == signed.learner.id)
            #expect(await events.next() == .sessionEnded, "told without a call")
            await #expect(throws: AppError.notSignedIn) { try await third.favourites(userID: signed.learner.id) }
        }
    }

    /// The server cannot be reached (which of the two a failure is depends on how it failed).
    static func isAbsence(_ error: any Error) -> Bool {
        switch error as? AppError {
        case .unreachable, .connectivity: true
        default: false
        }
    }

    @Test("two instances on one data directory refresh together for 5 rounds and both stay signed in (issue 22)")
    func twoInstancesOneDirectory() async throws {
        try await Signed.withSignedIn { signed async throws in
            let otherClock = TestClock()
            let other = RemoteStore(
                server: signed.server.url, dataDirectory: signed.client.url, httpClient: testHTTPClient, now: { otherClock.now },
                timeLimitClock: ManualClock())
            let first = signed.store
            let learner = signed.learner.id

            // Round 1 is the second terminal starting (its restore refreshes) while the first
            // refreshes too; then both find their tokens expired at the same moment, four times.
            async let restored = other.restoreSession()
            signed.clientClock.advance(by: 3_600)
            async let firstRead = first.user(id: learner)
            #expect(try await restored?.id == learner)
            #expect(try await firstRead.id == learner)
            for _ in 2...5 {
                signed.clientClock.advance(by: 3_600)
                otherClock.advance(by: 3_600)
                async let a = first.user(id: learner)
                async let b = other.user(id: learner)
                #expect(try await a.id == learner)
                #expect(try await b.id == learner)
            }

            // Both are still signed in: each reads an authorized route, and neither was told its
            // session ended.
            #expect(try await first.favourites(userID: learner).isEmpty)
            #expect(try await other.favourites(userID: learner).isEmpty)
            #expect(try await other.restoreSession()?.id == learner, "the stored token still works")
            #expect(await first.refreshCount + other.refreshCount >= 10, "every round refreshed on both")
            let lock = try signed.sessionFile.deletingPathExtension().appendingPathExtension("lock")
            #expect(try FileManager.default.attributesOfItem(atPath: lock.path)[.posixPermissions] as? Int == 0o600)
        }
    }

    @Test("log out with the server down forgets the session here at once")
    func signOutWhileDown() async throws {
        try await Signed.withSignedIn { signed async throws in
            await signed.server.stop()
            try await signed.store.signOut(userID: signed.learner.id)
            #expect(try await signed.store.restoreSession() == nil)
            await #expect(throws: AppError.notSignedIn) { try await signed.store.enrolledCourses(userID: signed.learner.id) }
        }
    }

    @Test("log out with the server up ends the sign-in there: the refresh token no longer works")
    func signOutRevokes() async throws {
        try await Signed.withSignedIn { signed async throws in
            let stored = try signed.sessionFile
            let saved = try Data(contentsOf: stored)
            try await signed.store.signOut(userID: signed.learner.id)
            let copy = TemporaryDirectory(prefix: "edugo-remote-copy")
            defer { copy.remove() }
            let file = copy.url.appendingPathComponent("sessions").appendingPathComponent(stored.lastPathComponent)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try saved.write(to: file)
            #expect(
                try await RemoteStore(
                    server: signed.server.url, dataDirectory: copy.url, httpClient: testHTTPClient, timeLimitClock: ManualClock()
                ).restoreSession()
                    == nil)
        }
    }

    @Test("the store asks for the UI's language: a field the server refuses is explained in it")
    func language() async throws {
        try await Signed.withSignedIn { signed async throws in
            let other = TemporaryDirectory(prefix: "edugo-remote-es")
            defer { other.remove() }
            let spanish = RemoteStore(
                server: signed.server.url, dataDirectory: other.url, httpClient: testHTTPClient, language: "es",
                timeLimitClock: ManualClock())
            await #expect {
                _ = try await spanish.createAccount(name: "Ana", email: "ana@example.org", password: "corta")
            } throws: { error in
                guard case .invalidAccount(let rejection) = error as? AppError else { return false }
                return rejection.field == .password && rejection.message.english == "Usa una contraseña de 8 caracteres o más"
            }
        }
    }
}
