import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 25: a lesson read to its end, its questions answered, marked done; the answers
    /// come back to review the next day (`--today`), and the demo learner has cards on day one.
    @Suite("Journey: lessons, questions and review")
    struct LessonJourneyTests {
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
                try await session.waitFor("the demo's cards due on day one") { $0.contains { $0.contains("Review  18 due today") } }

                try session.send("1")
                try await session.openCourse("Swift Fundamentals")
                try await session.waitFor("Progress      3 of 8 lessons")
                try await session.waitFor("the footer offering Enter") { $0.last?.contains("Enter read") == true }
                try session.send("Enter")
                let reader = try await session.waitFor("Lesson 4 of 8 · Swift Fundamentals")
                #expect(reader.contains { $0.contains("Control flow with if, switch and loops") })
                #expect(reader.contains { $0.contains("Making decisions with if") }, "the heading, drawn without its backticks")
                #expect(!reader.contains { $0.contains("```") }, "code fences are drawn as code, not as text")

                try session.send("G")
                try await session.waitFor("End of the lesson · 3 questions follow — Space")
                try session.send("Space")
                try await session.waitFor("Question 1 of 3")
                try session.send("2", "Enter")  // 1, 2, 3
                try await session.waitFor("✓ Right")
                try session.send("Space")
                try await session.waitFor("Question 2 of 3")
                try session.send("Enter")  // the first choice: wrong
                try await session.waitFor("✗ Not quite")
                try session.send("Space")
                try await session.waitFor("Question 3 of 3")
                try session.send("Enter")
                try await session.waitFor("the footer offering to mark it done") {
                    $0.last?.contains("Space mark done and continue") == true
                }
                try session.send("Space")
                try await session.waitFor("Lesson 5 of 8 · Swift Fundamentals")
                try await session.waitFor("Lesson done: Control flow with if, switch and loops")
                try session.send("Escape")
                try await session.waitFor("Progress      4 of 8 lessons")
                try session.send("q", "q")
                #expect(try await session.waitForExit() == 0)
            }

            let tomorrow = try TmuxSession(arguments: ["--today", "2026-11-25"], dataDirectory: directory)
            try await tomorrow.signInIfAsked()
            try await tomorrow.waitFor("Agile and Scrum")
            try tomorrow.send("5")
            // 18 of the demo's, 3 more of them due on the second day, and yesterday's 3 answers.
            try await tomorrow.waitFor("yesterday's 3 answers due besides the demo's") {
                $0.contains { $0.contains("Review  24 due today") }
            }
            try tomorrow.send("Enter")
            try await tomorrow.waitFor("How well did it come back?")
            try tomorrow.send("g")
            try await tomorrow.waitFor("Review  23 due today · 1 reviewed")
        }
    }
}
