import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 27: with `--accessible` a screen reader or a braille display, which follow the
    /// terminal's cursor, find the selected course, the prompt and what each action did.
    @Suite("Journey: the accessible mode")
    struct AccessibleJourneyTests {
        /// Box drawing, blocks, braille (the spinner) and the symbols that stand for words.
        static func decorations(in screen: [String]) -> [String] {
            screen.filter { line in
                line.unicodeScalars.contains { scalar in
                    (0x2500...0x259F).contains(scalar.value) || (0x2800...0x28FF).contains(scalar.value)
                        || "●○✗".unicodeScalars.contains(scalar)
                }
            }
        }

        static func expectPlain(_ screen: [String], _ moment: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(decorations(in: screen) == [], "\(moment)", sourceLocation: sourceLocation)
        }

        /// The text left of the cursor on its row, trailing spaces dropped.
        static func before(_ x: Int, _ y: Int, _ screen: [String]) -> String {
            guard screen.indices.contains(y) else { return "" }
            var text = String(screen[y].prefix(x))
            while text.last == " " { text.removeLast() }
            return text
        }

        @Test("--accessible, NO_COLOR: the cursor on the field typed in, the selected row after each move, the prompt, the news")
        func cursor() async throws {
            let session = try TmuxSession(arguments: ["--accessible"], environment: ["NO_COLOR": "1"])
            try await session.waitFor("Sign in to EduGo")
            try session.type("demo@edugo.dev")
            try await session.waitForCursor("after the email typed") { x, y, screen in
                screen[y].contains("Email") && Self.before(x, y, screen).hasSuffix("demo@edugo.dev")
            }
            try session.send("Tab")
            try session.type("edugo-demo")
            try await session.waitForCursor("on the password field") { _, y, screen in screen[y].contains("Password") }
            try session.send("Enter")

            let (x, _, catalog) = try await session.waitForCursor("on the first course") { x, y, screen in
                screen[y].contains("Agile and Scrum in Real Teams") && x <= 1
            }
            #expect(x <= 1)
            Self.expectPlain(catalog, "the catalog")
            try session.send("Down")
            try await session.waitForCursor("on the second course") { _, y, screen in screen[y].contains("Building a Design System") }
            try session.send("Down")
            try await session.waitForCursor("on the third course") { _, y, screen in screen[y].contains("CI/CD Pipelines") }
            try session.send("Up")
            try await session.waitForCursor("back on the second") { _, y, screen in screen[y].contains("Building a Design System") }

            // An action's outcome: the cursor goes where it is written; the next key brings it back.
            try session.send("f")
            let (_, row, favourite) = try await session.waitForCursor("on the news") { _, y, screen in
                screen[y].contains("Added Building a Design System to favourites")
            }
            #expect(row == favourite.count - 1)
            #expect(favourite.contains { $0.contains("favourite") && $0.contains("Building a Design System") }, "the mark is a word")
            try session.send("Down")
            try await session.waitForCursor("on the third course again") { _, y, screen in screen[y].contains("CI/CD Pipelines") }

            // Typing a search: the cursor is in the field.
            try session.send("/")
            try session.type("swift")
            try await session.waitForCursor("after the search typed") { x, y, screen in
                y == 1 && Self.before(x, y, screen).hasSuffix("swift")
            }
            try session.send("Escape")

            // A question: the cursor waits after it.
            try session.send("2")
            try await session.waitForCursor("on my first course") { _, y, screen in screen[y].contains("Swift Fundamentals") }
            try session.send("u")
            let (qx, qy, question) = try await session.waitForCursor("after the question") { x, y, screen in
                Self.before(x, y, screen).hasSuffix("(y/n)")
            }
            #expect(question[qy].hasPrefix(" Unenroll from Swift Fundamentals?") && qx > 0)
            Self.expectPlain(question, "my courses")
            try session.send("n")
            try await session.waitForCursor("on my first course again") { _, y, screen in screen[y].contains("Swift Fundamentals") }
        }

        @Test("--accessible with the mono theme: no box drawing, block or spinner character on any screen")
        func plain() async throws {
            let config = TemporaryDirectory(prefix: "edugo-config")
            defer { config.remove() }
            let file = try config.file("config.toml", containing: "accessible = true\n[theme]\nname = \"mono\"\n")
            let session = try TmuxSession(arguments: ["--config", file.path])
            try await session.signInIfAsked()
            Self.expectPlain(try await session.waitFor("Agile and Scrum"), "the catalog")
            try session.send("?")
            Self.expectPlain(try await session.waitFor("Search and filters"), "the help")
            try session.send("Escape", ":")
            Self.expectPlain(try await session.waitFor("Actions"), "the palette")
            try session.send("Escape", "Enter")
            Self.expectPlain(try await session.waitFor("Seats left"), "the course page")
            try session.send("2")
            Self.expectPlain(try await session.waitFor("%  In progress"), "my courses")
            try session.send("Enter")
            Self.expectPlain(try await session.waitFor("Lesson "), "the lesson")
            try session.send("5")
            Self.expectPlain(try await session.waitFor(" due"), "the review")
            try session.send("Space", "Enter")
            let answered = try await session.waitFor("the answer") { $0.contains { $0.contains("Right") || $0.contains("Not quite") } }
            Self.expectPlain(answered, "an answered card")
            #expect(answered.contains { $0.contains(" right ") }, "the right choice says so in a word")
        }
    }
}
