import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 3's journey: enroll, see it in My courses, keep it across a restart, unenroll.
    @Suite("Journey: enroll and My courses")
    struct EnrollJourneyTests {
        @Test("enroll, see it on tab 2, restart, still there, unenroll all; the completed course stays as history")
        func enrollAndUnenroll() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            do {
                let session = try TmuxSession(dataDirectory: directory)
                try await session.signInIfAsked()
                try await session.waitFor("Agile and Scrum")
                try await session.openCourse("Agile and Scrum in Real Teams")

                try session.send("e", "y")
                let enrolled = try await session.waitFor("Enrolled in Agile and Scrum in Real Teams")
                #expect(enrolled.contains { $0.contains("Status        ✓ Enrolled") })

                try session.send("2")
                let mine = try await session.waitFor("My courses  3 enrolled")
                #expect(mine.contains { $0.contains("Agile and Scrum in R") && $0.contains("0%") && $0.contains("Not started") })
                try session.send("q")
                #expect(try await session.waitForExit() == 0)
            }

            let restarted = try TmuxSession(dataDirectory: directory)
            try await restarted.signInIfAsked()
            try await restarted.waitFor("Agile and Scrum")
            try restarted.send("2")
            try await restarted.waitFor("My courses  3 enrolled")
            try restarted.send("u")
            try await restarted.waitFor("Unenroll from Agile and Scrum in Real Teams? (y/n)")
            try restarted.send("y")
            try await restarted.waitFor("Unenrolled from Agile and Scrum in Real Teams")
            try await restarted.waitFor("My courses  2 enrolled")
            try restarted.send("u", "y", "u", "y")
            // The count moves at the key; the row reads `Saving…` until the store answers.
            try await restarted.waitFor("My courses  0 enrolled · 1 left")
            try await restarted.waitFor("the completed course as history, saved") { lines in
                lines.contains { $0.contains("The Linux Command Line") && $0.contains("Completed · not enrolled") }
            }
            try restarted.send("1")
            try await restarted.waitFor("the catalog without a ✓") { lines in
                lines.contains { $0.contains("64 courses") } && !lines.contains { $0.contains("✓") }
            }
        }

        @Test("a full course and a missing prerequisite are refused with SPEC's words")
        func refusals() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")

            try await session.openCourse("Negotiation Skills")
            try session.send("e")
            try await session.waitFor("Negotiation Skills is full")

            try session.send("Escape")
            try await session.openCourse("Swift Concurrency in Practice")
            try session.send("e")
            try await session.waitFor("Complete Swift Fundamentals first")

            try session.send("Escape")
            try await session.openCourse("Writing Swift Macros")
            try session.send("e")
            try await session.waitFor("Writing Swift Macros is not open for enrollment")
        }

        @Test("enrolling in a limited course takes a seat at once")
        func seatsUpdate() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            try await session.openCourse("UI Design Basics")
            try await session.waitFor("Seats left    26 of 90")

            try session.send("e", "y")

            try await session.waitFor("Seats left    25 of 90")
        }
    }
}
