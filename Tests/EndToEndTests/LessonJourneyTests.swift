import Foundation
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 25: a lesson read to its end, its questions answered, marked done; the answers
    /// come back to review the next day (`--today`), and the demo learner has cards on day one.
    @Suite("Journey: lessons, questions and review")
    struct LessonJourneyTests {
        @Test(
            "a lesson's links are OSC 8 hyperlinks where the terminal is known to show them (here, told so), never where not (tmux, by default)",
            arguments: [false, true])
        func hyperlinks(_ told: Bool) async throws {
            let session = try TmuxSession(environment: told ? ["EDUGO_HYPERLINKS": "on"] : [:])
            try session.recordOutput()
            try await session.signInIfAsked()
            try session.send("2")
            try await session.waitFor("Swift Fundamentals      ███")
            try session.send("Enter")  // the first lesson not done: 4, which links to the Swift book
            try await session.waitFor("Lesson 4 of 8 · Swift Fundamentals")
            try session.send("G")
            let end = try await session.waitFor("[1] https://docs.swift.org/swift-book/")
            #expect(end.contains { $0.contains("the Control Flow chapter[1] of the official Swift book") })
            // A later frame's text in the output: every byte of the frames before it is there too.
            try session.send("Space")
            try await session.waitFor("Question 1 of 3")
            let output = try await session.waitForOutput("the questions' frame") { $0.range(of: Data("Question 1 of 3".utf8)) != nil }
            let opening = Data(
                "\u{1B}]8;;https://docs.swift.org/swift-book/documentation/the-swift-programming-language/controlflow/\u{1B}\\".utf8)
            #expect((output.range(of: opening) != nil) == told)
            #expect((output.range(of: Data("\u{1B}]8;".utf8)) != nil) == told, "no OSC 8 at all unless told")
        }

        @Test("read lesson 4 of Swift Fundamentals, answer its 3 questions, mark it done; review the cards the next day")
        func readAnswerReview() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let today = "2026-11-24"
            do {
                let session = try TmuxSession(arguments: ["--today", today], dataDirectory: directory)
                try await session.signInIfAsked()
                try await session.waitFor("Agile and Scrum")
                try session.send("5")
                try await session.waitFor("the demo's cards due on day one") {
                    $0.contains { $0.contains("Review  0 new · 0 learning · 18 due") }
                }

                try session.send("M-1")  // a card shows: the digits pick, Alt-1 is the catalog
                try await session.takeLessonFour()
                try session.send("q", "q")
                #expect(try await session.waitForExit() == 0)
            }

            let tomorrow = try TmuxSession(arguments: ["--today", "2026-11-25"], dataDirectory: directory)
            try await tomorrow.signInIfAsked()
            try await tomorrow.waitFor("Agile and Scrum")
            try tomorrow.send("5")
            // 18 of the demo's, 3 more of them due on the second day, and yesterday's 3 answers,
            // through their first learning steps and new to review.
            try await tomorrow.waitFor("yesterday's 3 answers due besides the demo's") {
                $0.contains { $0.contains("Review  3 new · 0 learning · 21 due") }
            }
            try tomorrow.send("1", "Enter")
            try await tomorrow.waitFor("How well did it come back?")
            try tomorrow.send("g")
            try await tomorrow.waitFor("· 1 reviewed")
        }

        @Test("the same against edugo-server: the lesson fetched, answered, marked done; its cards reviewed the next day")
        func remote() async throws {
            let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
            defer {
                server.signal(SIGKILL)
                server.directory.remove()
            }
            // Days far after the server seeded the demo's answers (by its own clock): every one
            // of the demo's 30 cards is due, whatever the date the test runs on.
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            do {
                let session = try TmuxSession(
                    arguments: ["--server", server.baseURL.absoluteString, "--today", "2030-01-01"], dataDirectory: directory)
                try await session.signInIfAsked()
                try await session.waitFor("Catalog  64 courses")
                try session.send("5")
                try await session.waitFor("Review  0 new · 0 learning · 30 due")
                try session.send("M-1")  // a card shows: the digits pick, Alt-1 is the catalog
                try await session.takeLessonFour()
                try session.send("q", "q")
                #expect(try await session.waitForExit() == 0)
            }
            let (api, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
            let answers = try await api.get("/v1/me/enrollments/swift-fundamentals/answers")
            #expect((answers.json["answers"] as? [[String: Any]])?.count == 12, "\(answers.json)")

            let tomorrow = try TmuxSession(
                arguments: ["--server", server.baseURL.absoluteString, "--today", "2030-01-02"], dataDirectory: directory)
            try await tomorrow.signInIfAsked()
            try await tomorrow.waitFor("Catalog  64 courses")
            try tomorrow.send("5")
            try await tomorrow.waitFor("Review  3 new · 0 learning · 30 due")
            try tomorrow.send("1", "Enter")
            try await tomorrow.waitFor("How well did it come back?")
            try tomorrow.send("g")
            try await tomorrow.waitFor("· 1 reviewed")
        }
    }
}

extension TmuxSession {
    /// From the catalog: Swift Fundamentals' page, `Enter` on its first lesson not done (4, as
    /// the demo has it), read to the end, its 3 questions answered (right, wrong, the first
    /// choice), marked done; back on the page with the progress and the score.
    fileprivate func takeLessonFour() async throws {
        try await openCourse("Swift Fundamentals")
        try await waitFor("Progress      3 of 8 lessons")
        try await waitFor("the footer offering Enter") { $0.last?.contains("Enter read") == true }
        try send("Enter")
        let reader = try await waitFor("Lesson 4 of 8 · Swift Fundamentals")
        #expect(reader.contains { $0.contains("Control flow with if, switch and loops") })
        #expect(reader.contains { $0.contains("Making decisions with if") }, "the heading, drawn without its backticks")
        #expect(!reader.contains { $0.contains("```") }, "code fences are drawn as code, not as text")

        try send("G")
        try await waitFor("End of the lesson · 3 questions follow — Space")
        try send("Space")
        try await waitFor("Question 1 of 3")
        try await choose("1, 2, 3")
        try send("Enter")
        try await waitFor("✓ Right")
        try send("Space")
        try await waitFor("Question 2 of 3")
        try await choose("Other values are silently ignored")  // wrong
        try send("Enter")
        try await waitFor("✗ Not quite")
        try send("Space")
        try await waitFor("Question 3 of 3")
        try await choose("repeat-while runs its body at least once")
        try send("Enter")
        try await waitFor("the footer offering to mark it done") { $0.last?.contains("Space mark done and continue") == true }
        try send("Space")
        // The save's notice first: it shows for 5 s, and lesson 5 may come long before or after it.
        try await waitFor("Lesson done: Control flow with if, switch and loops")
        try await waitFor("Lesson 5 of 8 · Swift Fundamentals")
        try send("Escape")
        try await waitFor("Progress      4 of 8 lessons")
        // The demo's 9 answers of lessons 1 to 3, and these 3.
        try await waitFor("of 12 answered right · 12 to answer")
    }
}
