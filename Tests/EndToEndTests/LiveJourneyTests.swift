import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 24: two terminals of one learner on one data directory agree, with no key pressed
    /// in the one that watches.
    @Suite("Journey: live across terminals")
    struct LiveJourneyTests {
        @Test("B enrolls, marks lessons, favourites and renames: A shows each with no key pressed; A's Space cannot undo B's lessons")
        func twoInstancesOneDataDirectory() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let a = try TmuxSession(dataDirectory: directory)
            try await a.signInIfAsked()
            let b = try TmuxSession(dataDirectory: directory)
            try await b.signInIfAsked()
            try await a.waitFor("Agile and Scrum")
            try await b.waitFor("Agile and Scrum")

            // B enrolls: A's catalog row gains its ✓.
            try await b.openCourse("Cloud Foundations on AWS")
            try b.send("e", "y")
            try await b.waitFor("Enrolled in Cloud Foundations on AWS")
            try await a.waitFor("the ✓ on A's catalog row") { $0.contains { $0.contains("✓ Cloud Foundations on AWS") } }

            // B marks two lessons; A opens the course afresh: 2 of 9, and Space marks the third.
            try b.send("Space")
            try await b.waitFor("Progress      1 of 9 lessons")
            try b.send("Space")
            try await b.waitFor("Progress      2 of 9 lessons")
            try await a.openCourse("Cloud Foundations on AWS")
            try await a.waitFor("Progress      2 of 9 lessons")
            try await a.waitFor("the footer offering Space done") { $0.last?.contains("Space done") == true }
            try a.send("Space")
            try await a.waitFor("Progress      3 of 9 lessons")
            try await b.waitFor("Progress      3 of 9 lessons")

            // B's selection stayed on lesson 3, which A marked: its footer says so, and B moves on
            // to mark the fourth while A watches the same page; then a favourite.
            try await b.waitFor("the footer on B offering Space not done") { $0.last?.contains("Space not done") == true }
            try b.send("Down", "Space")
            try await a.waitFor("Progress      4 of 9 lessons")
            try b.send("f")
            try await a.waitFor("★ Favourite")

            // B renames the learner: A's header follows.
            try await b.renameLearner(to: "Ana Live")
            try await a.waitFor("the new name in A's header") { $0.first?.hasSuffix("Ana Live") == true }

            // B leaves the course: A's page offers e again.
            try b.send("2")
            try await b.waitFor("Cloud Foundations on AWS")
            try b.send("Home", "u")
            try await b.waitFor("(y/n)")
            try b.send("y")
            try await a.waitFor("the footer offering e on A") { $0.last?.contains("e enroll") == true }
        }

        @Test("tui import-courses in another process: the running catalog shows the new course and its count, with no key pressed")
        func importWhileRunning() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let session = try TmuxSession(dataDirectory: directory)
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            let file = directory.url.appendingPathComponent("import.json").path
            let entry =
                #"{"id": "aardvark-basics", "title": "Aardvark Basics", "instructor": "Ana Ruiz", "level": "beginner", "duration_minutes": 30, "price": 0, "currency": "EUR", "description": "A course imported while the app runs."}"#
            _ = FileManager.default.createFile(atPath: file, contents: Data("[\(entry)]".utf8))

            let imported = try await runTUI(["import-courses", file, "--data-dir", directory.path])

            #expect(imported.status == 0)
            let screen = try await session.waitFor("the imported course on the first row") { lines in
                lines.count > 3 && lines[3].contains("Aardvark Basics")
            }
            #expect(screen[1].contains("65 courses"))
        }
    }
}
