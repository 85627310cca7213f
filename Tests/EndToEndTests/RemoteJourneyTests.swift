import Foundation
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 16: the same app against the real `edugo-server`, through a change made
    /// elsewhere, an outage, expiring tokens and a server that forgot the session.
    @Suite("Journey: remote mode")
    struct RemoteJourneyTests {
        @Test("sign in, browse, search, enroll, a lesson, a favourite, a change made elsewhere, rename, log out")
        func wholeJourney() async throws {
            let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
            defer {
                server.signal(SIGKILL)
                server.directory.remove()
            }
            let session = try await TmuxSession.onCatalog(of: server.baseURL)

            try session.send("/")
            try session.type("swift")
            try await session.waitFor("8 matches")
            try session.send("Escape", "Escape")
            try await session.waitFor("Catalog  64 courses")

            try await session.openCourse("Photography Basics: Light and Exposure")
            try session.send("e", "y")
            try await session.waitFor("Enrolled in Photography Basics: Light and Exposure")
            try await session.waitFor("the footer offering Space") { $0.last?.contains("Space done") == true }
            try session.send("Space")
            // The progress shows at once; the server's answer comes with its message, which shows
            // for 5 s: waited for first. The favourite's own message is waited for after it: a
            // slow answer to the lesson would otherwise come second and replace it.
            try await session.waitFor("Lesson done: How a camera sees light")
            try await session.waitFor("Progress      1 of 6 lessons")
            try session.send("f")
            try await session.waitFor("Added Photography Basics: Light and Exposure to favourites")

            // The same learner, elsewhere: a favourite through the API shows after `r`.
            try session.send("3")
            try await session.waitFor("Favourites  1 course")
            let (api, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
            #expect(try await api.send("PUT", "/v1/me/favourites/ux-research").status == 204)
            try session.send("r")
            try await session.waitFor("Favourites  2 courses")

            try await session.renameLearner(to: "Zoë Remote")
            let me = try await api.get("/v1/me")
            #expect(me.json["name"] as? String == "Zoë Remote")

            let enrolled = try await api.get("/v1/me/enrollments")
            let courses = (enrolled.json["enrollments"] as? [[String: Any]] ?? []).compactMap {
                ($0["course"] as? [String: Any])?["id"] as? String
            }
            #expect(courses.contains("photography-basics"))

            // At 80 columns the header names the server, and so does the sign-in form.
            let place = "\(server.baseURL.host ?? ""):\(server.baseURL.port ?? 0)"
            // (Cut in its middle beside a 10-column name: its port and mark show.)
            try await session.waitFor("the server in the header") {
                $0.first?.contains(":\(server.baseURL.port ?? 0) ● · Zoë Remote") == true
            }
            try session.send("l")
            try await session.waitFor("Log out? (y/n)")
            try session.send("y")
            try await session.waitFor("Sign in to EduGo")
            let form = try await session.waitFor("On the server \(place)")
            #expect(!form.contains { $0.contains("demo@edugo.dev /") }, "no local demo account against a server")
            try session.send("C-c")
            #expect(try await session.waitForExit() == 0)
            let sessions = session.dataDirectory.url.appendingPathComponent("sessions")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: sessions.path)) ?? []).isEmpty, "nothing kept after log out")
            #expect(
                !FileManager.default.fileExists(atPath: session.dataDirectory.url.appendingPathComponent("edugo.sqlite").path),
                "no course data on disk")
        }

        @Test(
            "the server killed: Cannot reach with a countdown, the saved courses still listed and open; started again: the screen recovers by itself"
        )
        func outage() async throws {
            let directory = try await ServerProcess.preparedDirectory()
            defer { directory.remove() }
            var server = try await ServerProcess(directory: directory)
            let port = server.baseURL.port ?? 0
            let session = try await TmuxSession.onCatalog(of: server.baseURL)
            // My courses read while the server is up (the whole list loads behind the catalog's
            // first frame: killing the server at once could come before it).
            try session.send("2")
            try await session.waitFor("My courses  2 enrolled")
            // The enrolled courses saved in the background at sign-in, before the server goes.
            try await session.waitForLog("saved for offline")

            server.signal(SIGKILL)
            _ = await server.waitForExit()
            // Loaded content stays, with the mark in the header and the countdown below.
            let marked = try await session.waitFor("Cannot reach 127.0.0.1:\(port) — retrying in")
            #expect(marked.first?.contains(":\(port) ⚠ · Demo Learner") == true, "the mark once: \(marked.first ?? "")")
            #expect(marked.contains { $0.contains("My courses  2 enrolled") })
            // The catalog searches the courses saved (the enrolled ones, and the catalog page
            // the app opened on), and says so; the keys keep working: a saved course's page opens.
            try session.send("1")
            let offline: @Sendable ([String]) -> Bool = { lines in
                lines.contains { $0.contains("Offline — searching ") && $0.contains(" saved courses") }
            }
            try await session.waitFor("the catalog of saved courses", offline)
            try session.send("/")
            try session.type("swift fundamentals")
            try session.send("Enter", "Enter")
            try await session.waitFor("Syllabus  8 lessons")
            try session.send("Escape", "Escape", "3")
            try await session.waitFor("tab 3 in front") { $0.first?.contains("⚠") == true && $0.contains { $0.contains("Cannot reach") } }
            try session.send("1")
            try await session.waitFor("the catalog of saved courses again", offline)

            // Back: no key pressed, the server's catalog comes by itself and the mark goes.
            server = try await ServerProcess(directory: directory, port: port)
            defer { server.signal(SIGKILL) }
            let recovered = try await session.waitFor("the server's catalog") { lines in
                lines.contains { $0.contains(" Catalog  ") && $0.contains(" courses") && !$0.contains("Offline") }
            }
            #expect(recovered.first?.hasSuffix("Demo Learner") == true && recovered.first?.contains("⚠") == false)
            try session.send("q", "q")
            #expect(try await session.waitForExit() == 0)
        }

        /// Asks `condition` until it holds (20 s at most): for state outside the screen.
        static func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while try await !condition() {
                guard ContinuousClock.now < deadline else { throw ServerTestError("never saw \(what)") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        @Test("two terminals of one learner see the same enrollments, progress and favourites")
        func twoTerminals() async throws {
            let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
            defer {
                server.signal(SIGKILL)
                server.directory.remove()
            }
            let first = try await TmuxSession.onCatalog(of: server.baseURL)
            let second = try await TmuxSession.onCatalog(of: server.baseURL)

            try await first.openCourse("Agile and Scrum in Real Teams")
            try first.send("e", "y")
            try await first.waitFor("the footer offering Space") { $0.last?.contains("Space done") == true }
            try first.send("Space", "f")
            try await first.waitFor("Progress      1 of 6 lessons")
            try await first.waitFor("★ Favourite")
            // The first terminal shows its changes before the server has them: wait for them there.
            let (api, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
            try await Self.waitUntil("the lesson and the favourite on the server") {
                let enrollments = try await api.get("/v1/me/enrollments").json["enrollments"] as? [[String: Any]] ?? []
                let agile = enrollments.first { ($0["course"] as? [String: Any])?["id"] as? String == "agile-scrum" }
                let favourites = try await api.get("/v1/me/favourites").json["courses"] as? [[String: Any]] ?? []
                return (agile?["lessons_done"] as? [Any])?.count == 1 && favourites.contains { $0["id"] as? String == "agile-scrum" }
            }

            try second.send("2")
            // The list can draw before the lesson's change reaches this terminal's stream:
            // the row's progress is what to wait for, not the header.
            try await second.waitFor("My courses  3 enrolled, Agile at 16%") { lines in
                lines.contains { $0.contains("My courses  3 enrolled") }
                    && lines.contains { $0.contains("Agile and Scrum in R") && $0.contains("16%") }
            }
            try second.send("3")
            try await second.waitFor("Favourites  1 course")
            try first.send("q", "q")
            try second.send("q")
            #expect(try await first.waitForExit() == 0)
            #expect(try await second.waitForExit() == 0)
        }

        @Test(
            "started while the server is down: on the replica, signed in; without one, the sign-in screen says so and the session resumes by itself"
        )
        func startWhileDown() async throws {
            let directory = try await ServerProcess.preparedDirectory()
            defer { directory.remove() }
            var server = try await ServerProcess(directory: directory)
            let port = server.baseURL.port ?? 0
            let client = TemporaryDirectory(prefix: "edugo-e2e")
            defer { client.remove() }
            do {
                let session = try TmuxSession(arguments: ["--server", server.baseURL.absoluteString], dataDirectory: client)
                try await session.signInIfAsked()
                try await session.waitFor("Catalog  64 courses")
                try session.send("q")
                #expect(try await session.waitForExit() == 0)
            }
            server.signal(SIGKILL)
            _ = await server.waitForExit()

            // The learner opens on the replica their last run kept, signed in (issue 43); the
            // catalog, which only the server has, says it cannot be reached.
            do {
                let session = try TmuxSession(arguments: ["--server", server.baseURL.absoluteString], dataDirectory: client)
                try await session.waitFor("Cannot reach 127.0.0.1:\(port) — retrying in")
                try await session.waitFor("the tabs, the server marked away") {
                    $0.first?.contains("1 Catalog") == true && $0.first?.contains("⚠") == true
                }
                try session.send("q")
                #expect(try await session.waitForExit() == 0)
            }
            // Without a replica (an older version's data directory) the sign-in screen says why.
            try FileManager.default.removeItem(at: client.url.appendingPathComponent("replica"))
            let session = try TmuxSession(arguments: ["--server", server.baseURL.absoluteString], dataDirectory: client)
            try await session.waitFor("Cannot reach 127.0.0.1:\(port) — retrying in")
            try await session.waitFor("you are signed in again")
            server = try await ServerProcess(directory: directory, port: port)
            defer { server.signal(SIGKILL) }
            try await session.waitFor("Catalog  64 courses")
            try session.send("q")
            #expect(try await session.waitForExit() == 0)
        }

        @Test("tokens that live 3 s: a write after 5 s idle still works, refreshed unseen")
        func shortTokens() async throws {
            let server = try await ServerProcess(
                directory: try await ServerProcess.preparedDirectory(), arguments: ["--access-token-ttl", "3"])
            defer {
                server.signal(SIGKILL)
                server.directory.remove()
            }
            let session = try await TmuxSession.onCatalog(of: server.baseURL)
            // The idle time is what this test is about: the token expires meanwhile.
            try await Task.sleep(for: .seconds(5))
            try session.send("f")
            try await session.waitFor("Added Agile and Scrum in Real Teams to favourites")
            try session.send("q")
            #expect(try await session.waitForExit() == 0)
        }

        @Test(
            "the server started again with a fresh data directory: Your session has ended; signed in, back where they were, with what the server holds now"
        )
        func sessionEnded() async throws {
            var server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
            let port = server.baseURL.port ?? 0
            let session = try await TmuxSession.onCatalog(of: server.baseURL)
            try await session.openCourse("Agile and Scrum in Real Teams")
            try session.send("e", "y")
            try await session.waitFor("Status        ✓ Enrolled")
            // The page shows the enrollment once the replica has it: the server is killed only
            // once it has it too (else the terminal keeps it and gives it to the new server).
            let (api, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
            try await Self.waitUntil("the enrollment on the server") {
                let enrollments = try await api.get("/v1/me/enrollments").json["enrollments"] as? [[String: Any]] ?? []
                return enrollments.contains { ($0["course"] as? [String: Any])?["id"] as? String == "agile-scrum" }
            }
            try await session.waitFor("nothing waiting") { $0.first?.contains("⇡") == false }

            server.signal(SIGKILL)
            _ = await server.waitForExit()
            server.directory.remove()
            server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory(), port: port)
            defer {
                server.signal(SIGKILL)
                server.directory.remove()
            }
            // No key is sent: the app meets the ended session by itself (its event stream
            // connects again with the old token), and a key sent meanwhile could land in the
            // sign-in form's email field.
            try await session.waitFor("Your session has ended — sign in again")
            try await session.signInIfAsked()
            // Back on the course page; the new server never saw that enrollment, and the page
            // says so without a key pressed.
            try await session.waitFor("the course page, not enrolled") { lines in
                lines.contains { $0.contains("Agile and Scrum in Real Teams") } && !lines.contains { $0.contains("✓ Enrolled") }
                    && lines.last?.contains("e enroll") == true
            }
            try session.send("Escape", "2")
            try await session.waitFor("My courses  2 enrolled")
            try session.send("q")
            #expect(try await session.waitForExit() == 0)
        }

        @Test("no server at all: no hang, the sign-in says so, Ctrl-C exits 0")
        func noServer() async throws {
            let session = try TmuxSession(arguments: ["--server", "http://127.0.0.1:1"])
            try await session.waitFor("Sign in to EduGo")
            try session.type("demo@edugo.dev")
            try session.send("Tab")
            try session.type("edugo-demo")
            try session.send("Enter")
            try await session.waitFor("Cannot reach")
            try session.send("C-c")
            #expect(try await session.waitForExit() == 0)
        }
    }
}
