import Foundation
import Testing

extension EndToEnd {
    /// Issue 4's search journey.
    @Suite("Journey: search the catalog")
    struct SearchJourneyTests {
        @Test("/ then a query narrows the list, accents ignored; Enter keeps it; Esc restores")
        func search() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")

            try session.send("/")
            try session.type("nunez")
            let narrowed = try await session.waitFor("3 matches")
            #expect(narrowed.contains { $0.contains("Español conversac") })
            #expect(!narrowed.contains { $0.contains("Agile and Scrum") })

            try session.send("Enter")
            try await session.waitFor("Esc clear")
            try session.send("Escape")
            // The whole catalog again, the course selected in the filter still selected.
            let restored = try await session.waitFor("the whole catalog around the course") { lines in
                lines.contains { $0.contains("64 courses") } && lines.contains { $0.contains("Español conversac") }
            }
            #expect(!restored.contains { $0.contains(" 1/64") }, "not back at the top")

            try session.send("/")
            try session.type("zzz")
            try await session.waitFor("No courses match \"zzz\"")
            try session.send("Escape")
            try await session.waitFor("64 courses")
        }
    }
}
