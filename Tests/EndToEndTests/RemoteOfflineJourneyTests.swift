import Foundation
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 43: remote mode keeps working while the server is down: the writes are kept on
    /// the terminal's replica, counted in the header, and sent when the server is back.
    @Suite("Journey: remote mode offline")
    struct RemoteOfflineJourneyTests {
        @Test(
            "server killed: an answer, a lesson mark, a favourite, a new name and five cards graded kept with ⇡ 9, also after a restart offline; back: sent once, and another terminal shows them"
        )
        func offlineWritesSync() async throws {
            let directory = try await ServerProcess.preparedDirectory()
            defer { directory.remove() }
            var server = try await ServerProcess(directory: directory)
            let port = server.baseURL.port ?? 0
            let graded = try await Self.grades(server.baseURL)
            let session = try await TmuxSession.onCatalog(of: server.baseURL)
            // The course page read while the server is up: the replica keeps it.
            try session.send("2")
            try await session.waitFor("My courses  2 enrolled")
            try session.send("o")
            try await session.waitFor("Progress      3 of 8 lessons")
            // The next lesson read while the server is up: the replica keeps its text too.
            try session.send("Enter")
            try await session.waitFor("Making decisions with if")
            try session.send("Escape")
            try await session.waitFor("Progress      3 of 8 lessons")

            // The enrolled courses saved in the background at sign-in, before the server goes.
            try await session.waitForLog("saved for offline")
            server.signal(SIGKILL)
            _ = await server.waitForExit()
            try session.send("r")
            try await session.waitFor("Cannot reach 127.0.0.1:\(port) — retrying in")
            try await session.waitFor("the page again, from the replica") { $0.contains { $0.contains("Progress      3 of 8 lessons") } }
            // The courses were saved at sign-in: the score and the lesson read offline.
            try await session.waitFor("Score         7 of 9 answered right")
            try session.send("Enter")
            try await session.waitFor("Making decisions with if")
            // Its first question answered offline: kept unchecked (only the server knows the
            // right choices), and said so.
            try session.send("G")
            try await session.waitFor("End of the lesson · 3 questions follow")
            try session.send("Space")
            let question = try await session.waitFor("Question 1 of 3")
            let digit = try #require(question.first { $0.hasSuffix("○ 1, 2, 3") }?.split(separator: " ").first)
            try session.send(String(digit))
            try session.send("Enter")
            try await session.waitFor("⇡ Answer saved — checked when back online")
            try await session.waitFor("⇡ 1 to sync")
            try session.send("Escape")
            try await session.waitFor("End of the lesson · 3 questions follow")
            try session.send("Escape")
            try await session.waitFor("Score         7 of 9 answered right · 1 to be checked")
            try session.send("Space")
            try await session.waitFor("Progress      4 of 8 lessons")
            try await session.waitFor("⇡ 2 to sync")
            try session.send("f")
            try await session.waitFor("⇡ 3 to sync")
            try session.send("4")
            try await session.waitFor("Name              Demo Learner")
            try session.send("e", "C-u")
            try session.type("Offline Olga")
            try session.send("Enter")
            try await session.waitFor("Name              Offline Olga")
            let waiting = try await session.waitFor("⇡ 4 to sync")
            #expect(waiting.first?.contains("⚠") == true, "the header still says the server is out of reach")
            try session.send("3")
            try await session.waitFor("Favourites  1 course")
            // Five cards reviewed offline, from the cards saved at sign-in.
            try session.send("5")
            try await session.waitFor("the deck from the replica") { $0.count > 1 && $0[1].contains(" due") }
            for reviewed in 1...5 {
                try session.send("1")
                try session.send("Enter")
                try await session.waitFor("the grade keys") { $0.last.map { $0.contains("  h ") && $0.contains("  g ") } ?? false }
                try session.send("Enter")
                try await session.waitFor("\(reviewed) reviewed")
            }
            try await session.waitFor("⇡ 9 to sync")

            // Quit and start again, the server still down: the learner opens on the replica,
            // with what they did and the count of it.
            try session.send("q")
            #expect(try await session.waitForExit() == 0)
            let again = try TmuxSession(arguments: ["--server", server.baseURL.absoluteString], dataDirectory: session.dataDirectory)
            try await again.waitFor("⇡ 9 to sync")
            try again.send("3")
            try await again.waitFor("Favourites  1 course")
            try again.send("2")
            try await again.waitFor("Swift Fundamentals at 50%") { $0.contains { $0.contains("Swift Fundamentals") && $0.contains("50%") } }

            // Back: no key pressed, the queue goes and the count leaves the header.
            server = try await ServerProcess(directory: directory, port: port)
            defer { server.signal(SIGKILL) }
            try await again.waitFor("the header without ⇡ or ⚠") { lines in
                guard let header = lines.first else { return false }
                return !header.contains("⇡") && !header.contains("⚠")
            }
            let (api, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
            let me = try await api.get("/v1/me").json
            #expect(me["name"] as? String == "Offline Olga")
            let favourites = try await api.get("/v1/me/favourites").json["courses"] as? [[String: Any]] ?? []
            #expect(favourites.map { $0["id"] as? String } == ["swift-fundamentals"])
            let enrollments = try await api.get("/v1/me/enrollments").json["enrollments"] as? [[String: Any]] ?? []
            let swift = enrollments.first { ($0["course"] as? [String: Any])?["id"] as? String == "swift-fundamentals" }
            #expect((swift?["lessons_done"] as? [Any])?.count == 4)
            #expect(try await Self.grades(server.baseURL) == graded + 5, "each grade given offline counted once")
            let answers = try await api.get("/v1/me/enrollments/swift-fundamentals/answers").json["answers"] as? [[String: Any]] ?? []
            let answered = answers.first { $0["lesson"] as? Int == 4 && $0["question"] as? Int == 0 }
            #expect(answered?["is_right"] as? Bool == true, "the answer given offline, checked by the server")

            let second = try await TmuxSession.onCatalog(of: server.baseURL)
            try second.send("3")
            try await second.waitFor("Favourites  1 course")
            try second.send("4")
            try await second.waitFor("Name              Offline Olga")
            try second.send("2")
            try await second.waitFor("My courses  2 enrolled")
            try second.send("o")
            try await second.waitFor("Score         8 of 10 answered right")
            try second.send("Escape")
            try await second.waitFor("My courses  2 enrolled")
            try again.send("q")
            try second.send("q")
            #expect(try await again.waitForExit() == 0)
            #expect(try await second.waitForExit() == 0)
        }

        /// How many grades the demo learner's cards have had, over their enrolled courses.
        static func grades(_ baseURL: URL) async throws -> Int {
            let (api, _) = try await HTTPClient(baseURL: baseURL).signedIn()
            var total = 0
            for course in ["swift-fundamentals", "linux-command-line"] {
                let cards = try await api.get("/v1/me/enrollments/\(course)/cards").json["cards"] as? [[String: Any]] ?? []
                total += cards.compactMap { ($0["schedule"] as? [String: Any])?["reviews"] as? Int }.reduce(0, +)
            }
            return total
        }
    }
}
