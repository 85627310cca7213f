import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 13: a newcomer takes a course from enrollment to completion, then joins the
    /// course that needed it, with only the keys the footer shows.
    @Suite("Journey: learning progress")
    struct LearningJourneyTests {
        @Test("the demo learner starts with one course completed and one part-way")
        func seededProgress() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")

            try session.send("2")
            let mine = try await session.waitFor("My courses  2 enrolled")

            #expect(mine.contains { $0.contains("Swift Fundamentals") && $0.contains("37%") && $0.contains("In progress") })
            #expect(mine.contains { $0.contains("The Linux Command") && $0.contains("100%") && $0.contains("Completed") })
        }

        @Test(
            "progress is never lost: lessons marked, u y, e brings them back; the completed Linux course left still opens Git Beyond the Basics"
        )
        func leavingKeepsProgress() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            try await session.openCourse("Agile and Scrum in Real Teams")
            try session.send("e", "y")
            try await session.waitFor("the footer offering Space") { $0.last?.contains("Space done") == true }
            try session.send("Space", "Space", "Space")
            try await session.waitFor("Progress      3 of 6 lessons")

            try session.send("u")
            try await session.waitFor("Unenroll from Agile and Scrum in Real Teams? 3 of 6 lessons kept. (y/n)")
            try session.send("y")
            try await session.waitFor("Unenrolled from Agile and Scrum in Real Teams")
            try await session.waitFor("the footer offering e") { $0.last?.contains("e enroll") == true }
            try session.send("e", "y")
            try await session.waitFor("Enrolled in Agile and Scrum in Real Teams")
            let back = try await session.waitFor("Progress      3 of 6 lessons")
            #expect(back.filter { $0.contains("✓") && $0.contains("min") }.count == 3, "the three lessons' ✓ are back")

            try session.send("Escape")
            try await session.openCourse("The Linux Command Line")
            try await session.waitFor("Status        ✓ Completed")
            try session.send("u")
            try await session.waitFor("7 of 7 lessons kept. (y/n)")
            try session.send("y")
            // The save's own notice first: coming after the refusal below, it would replace it.
            // Waited for before the lines that stay, as it shows for 5 s only (on a loaded machine
            // it was gone once by the time the status line had been seen).
            try await session.waitFor("Unenrolled from The Linux Command Line")
            try await session.waitFor("Status        Completed")
            try await session.waitFor("not enrolled")
            try session.send("u")
            try await session.waitFor("✗ You are not enrolled in The Linux Command Line")

            try session.send("Escape")
            try await session.openCourse("Git Beyond the Basics")
            let open = try await session.waitFor("Prerequisite  The Linux Command Line — completed")
            #expect(!open.contains { $0.contains("Locked") })
            try await session.waitFor("the footer offering e") { $0.last?.contains("e enroll") == true }
            try session.send("e", "y")
            try await session.waitFor("Enrolled in Git Beyond the Basics")
            try session.send("2")
            let mine = try await session.waitFor("My courses  3 enrolled · 1 left")
            #expect(mine.contains { $0.contains("The Linux Command Line") && $0.contains("not enrolled") })
        }

        @Test("enroll, Space through every lesson to Completed, join the course that needed it; completion survives a restart")
        func completeThenJoin() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            do {
                let session = try TmuxSession(dataDirectory: directory)
                try await session.signInIfAsked()
                try await session.waitFor("Agile and Scrum")
                try await session.openCourse("Photo Editing in Lightroom")
                try await session.waitFor("complete it first")
                try session.send("p")
                try await session.waitFor("Photography Basics: Light and Exposure")
                try await session.waitFor("the footer offering e") { $0.last?.contains("e enroll") == true }

                try session.send("e", "y")
                try await session.waitFor("Enrolled in Photography Basics: Light and Exposure")
                try await session.waitFor("the footer offering Space") { $0.last?.contains("Space done") == true }
                for lesson in 1...5 {
                    try session.send("Space")
                    try await session.waitFor("Progress      \(lesson) of 6 lessons")
                }
                try session.send("Space")
                // The notice first: it shows for 5 s, the progress stays.
                try await session.waitFor("Course completed: Photography Basics: Light and Exposure")
                try await session.waitFor("Progress      6 of 6 lessons")

                try session.send("Escape")
                try await session.waitFor("Photo Editing in Lightroom")
                try await session.waitFor("the prerequisite met") {
                    $0.contains { $0.contains("Prerequisite") && $0.contains("completed") }
                }
                try session.send("e", "y")
                try await session.waitFor("Enrolled in Photo Editing in Lightroom")
                try session.send("q", "q")
                #expect(try await session.waitForExit() == 0)
            }

            let restarted = try TmuxSession(dataDirectory: directory)
            try await restarted.signInIfAsked()
            try await restarted.waitFor("Agile and Scrum")
            try restarted.send("2")
            // The rows, not only the title above them: a capture can land mid-frame.
            let mine = try await restarted.waitFor("My courses  4 enrolled, both rows drawn") { screen in
                screen.contains { $0.contains("My courses  4 enrolled") }
                    && screen.contains { $0.contains("Photography Basics") && $0.contains("Completed") }
                    && screen.contains { $0.contains("Photo Editing in") && $0.contains("Not started") }
            }
            #expect(mine.contains { $0.contains("Photography Basics") && $0.contains("100%") && $0.contains("Completed") })
            #expect(mine.contains { $0.contains("Photo Editing in") && $0.contains("Not started") })
        }
    }
}
