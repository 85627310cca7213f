import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// The rename part of issue 5's journey (sign-in and logout arrive with the rest of it).
    @Suite("Journey: profile name")
    struct ProfileJourneyTests {
        @Test("tab 4, e, Ctrl-U, type Zoë 山田, Enter: Name updated and the header shows it; a restart keeps it")
        func rename() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            do {
                let session = try TmuxSession(dataDirectory: directory)
                try await session.signInIfAsked()
                try await session.waitFor("Agile and Scrum")
                let updated = try await session.renameLearner(to: "Zoë 山田")
                #expect(updated[0].hasSuffix("Zoë 山田"))
                try session.send("q")
                #expect(try await session.waitForExit() == 0)
            }

            // No sign-in here: the session itself must have survived the restart.
            let restarted = try TmuxSession(dataDirectory: directory)
            let header = try await restarted.waitFor("the renamed learner in the header") { $0.first?.hasSuffix("Zoë 山田") == true }
            #expect(header[0].contains("1 Catalog"))
        }
    }
}
