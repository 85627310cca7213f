import Foundation
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 24, remote: two terminals and a `curl` act on one learner through the server (or
    /// two servers on one PostgreSQL database), and every screen agrees with no key pressed.
    @Suite("Journey: live across terminals, remote")
    struct RemoteLiveJourneyTests {
        @Test("two terminals and the API on one server: B's enrollment, lessons, favourite and rename, and a curl favourite, show in A")
        func twoTerminalsOneServer() async throws {
            let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
            defer {
                server.signal(SIGKILL)
                server.directory.remove()
            }
            let a = try await TmuxSession.onCatalog(of: server.baseURL)
            let b = try await TmuxSession.onCatalog(of: server.baseURL)

            try await Self.actInB(b, watchedBy: a)

            // The same learner through the API: a favourite shows in A's catalog.
            let (api, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
            #expect(try await api.send("PUT", "/v1/me/favourites/agile-scrum").status == 204)
            try a.send("Escape")
            try await a.waitFor("the ★ on Agile's row") { $0.contains { $0.contains("★") && $0.contains("Agile and Scrum") } }
        }

        @Test(
            "two servers on one PostgreSQL database: B on one, A on the other, every change shows in A",
            .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
        func twoServersOnePostgres() async throws {
            let test = try await PostgresTestDatabase.seeded()
            let one = try await ServerProcess(arguments: ["--database", test.url])
            let two = try await ServerProcess(arguments: ["--database", test.url])
            defer {
                one.signal(SIGKILL)
                two.signal(SIGKILL)
            }
            let a = try await TmuxSession.onCatalog(of: one.baseURL)
            let b = try await TmuxSession.onCatalog(of: two.baseURL)

            try await Self.actInB(b, watchedBy: a)
            await test.drop()
        }

        @Test("the server forgets every session: r on the catalog, with no write, asks to sign in again")
        func forgottenSessionOnReload() async throws {
            let directory = try await ServerProcess.preparedDirectory()
            defer { directory.remove() }
            var server = try await ServerProcess(directory: directory)
            let port = server.baseURL.port ?? 0
            let session = try await TmuxSession.onCatalog(of: server.baseURL)

            server.signal(SIGKILL)
            _ = await server.waitForExit()
            let fresh = try await ServerProcess.preparedDirectory()
            defer { fresh.remove() }
            server = try await ServerProcess(directory: fresh, port: port)
            defer { server.signal(SIGKILL) }
            try session.send("r")

            try await session.waitFor("Your session has ended")
        }

        /// B (watched by A, on its catalog) enrolls in Cloud Foundations, marks two lessons,
        /// favourites it and renames the learner; A shows each with no key pressed.
        static func actInB(_ b: TmuxSession, watchedBy a: TmuxSession) async throws {
            try await b.openCourse("Cloud Foundations on AWS")
            try b.send("e", "y")
            try await b.waitFor("Enrolled in Cloud Foundations on AWS")
            try await a.waitFor("the ✓ on A's catalog row") { $0.contains { $0.contains("✓ Cloud Foundations on AWS") } }

            try await a.openCourse("Cloud Foundations on AWS")
            try await a.waitFor("Progress      0 of 9 lessons")
            try b.send("Space")
            try await b.waitFor("Progress      1 of 9 lessons")
            try b.send("Space")
            try await a.waitFor("Progress      2 of 9 lessons")
            try await a.waitFor("the footer on A offering Space not done, on the lesson B marked") {
                $0.last?.contains("Space not done") == true
            }
            try b.send("f")
            try await a.waitFor("★ Favourite")

            try await b.renameLearner(to: "Ana Live")
            try await a.waitFor("the new name in A's header") { $0.first?.hasSuffix("Ana Live") == true }
        }
    }
}
