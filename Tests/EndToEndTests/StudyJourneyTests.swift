import Foundation
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 41, items 1–3: the review tab records only what the learner meant. Enter with
    /// nothing picked answers nothing; the digits pick, Alt and a digit switch tabs; a card
    /// graded in another terminal stays on screen, says so and takes no answer.
    @Suite("Journey: honest answers in review")
    struct StudyJourneyTests {
        /// The demo learner's 18 cards due on its first day.
        static let today = ["--today", "2026-11-24"]

        /// Two terminals of the demo learner on `directory`, both on the Review tab with its 18
        /// due, and the line of the card in front (course and lesson).
        static func twoOnReview(_ directory: TemporaryDirectory) async throws -> (TmuxSession, TmuxSession, String?) {
            let a = try TmuxSession(arguments: today, dataDirectory: directory)
            try await a.signInIfAsked()
            let b = try TmuxSession(arguments: today, dataDirectory: directory)
            try await b.signInIfAsked()
            try await a.waitFor("Agile and Scrum")
            try await b.waitFor("Agile and Scrum")
            try a.send("5")
            try b.send("5")
            try await a.waitFor("Review  0 new · 0 learning · 18 due")
            let shown = try await b.waitFor("Review  0 new · 0 learning · 18 due")
            return (a, b, shown.first { $0.contains("·") && !$0.contains("Review") })
        }

        @Test("Enter with every choice ○ answers nothing and says to pick first; 1–6 pick; Alt-2 leaves for My courses")
        func pickFirstAndDigits() async throws {
            let session = try TmuxSession(arguments: Self.today)
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            try session.send("5")
            try await session.waitFor("Review  0 new · 0 learning · 18 due")
            try await session.waitFor("the footer: digits pick, Alt and a digit switch tabs") {
                $0.last?.contains("1-6 choose") == true && $0.last?.contains("Alt-1-5 tabs") == true
            }

            try session.send("Enter")
            let refused = try await session.waitFor("✗ Pick an answer first")
            #expect(!refused.contains { $0.contains("How well did it come back?") }, "nothing answered")
            #expect(!refused.contains { $0.contains("Not quite") || $0.contains("Right") })

            try session.send("2")
            let picked = try await session.waitFor("choice 2 picked, still in Review") { screen in
                screen.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("2 ● ") }
                    && screen.contains { $0.contains("Review  0 new · 0 learning · 18 due") }
            }
            #expect(picked.contains { $0.contains("Review  0 new · 0 learning · 18 due") }, "2 picked a choice, it did not open My courses")

            try session.send("M-2")
            try await session.waitFor("My courses  2 enrolled")
        }

        @Test("two terminals on one card: A grades it, B keeps it with its pick, says so, takes no answer; Space shows the next")
        func reviewedInAnotherTerminal() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let (a, b, prompt) = try await Self.twoOnReview(directory)

            try b.send("1")
            try await b.waitFor("B's pick") { $0.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("1 ● ") } }

            try a.send("1", "Enter")
            try await a.waitFor("How well did it come back?")
            try a.send("g")
            try await a.waitFor("Review  0 new · 0 learning · 17 due · 1 reviewed")

            let kept = try await b.waitFor("Reviewed in another terminal — Space for the next card")
            #expect(kept.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("1 ● ") }, "B's pick stays on the same card")
            #expect(kept.contains { $0 == prompt }, "the same card, not the next")

            try b.send("Enter")
            let refused = try await b.waitFor("Enter refused") { $0.last?.contains("Reviewed in another terminal") == true }
            #expect(!refused.contains { $0.contains("How well did it come back?") }, "B answered nothing")

            try b.send("Space")
            let next = try await b.waitFor("the next card, nothing picked") { screen in
                !screen.contains { $0.contains("Reviewed in another terminal") } && screen.contains { $0.contains(" ○ ") }
            }
            #expect(!next.contains { $0.contains(" ● ") })
            #expect(next.contains { $0.contains("Review  0 new · 0 learning · 17 due") })
        }
        @Test("z takes back a grade, in this terminal and the other's counts; m shows the memory picture; nothing left says why")
        func undoAndMemory() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let (a, b, prompt) = try await Self.twoOnReview(directory)

            try a.send("z")
            try await a.waitFor("✗ No grade to undo in this session")
            try a.send("1", "Enter")
            try await a.waitFor("How well did it come back?")
            try a.send("a")
            try await a.waitFor("Review  0 new · 0 learning · 17 due · 1 reviewed")
            try await b.waitFor("Review  0 new · 0 learning · 17 due")

            try a.send("z")
            let back = try await a.waitFor("Grade undone — answer the card again")
            #expect(back.contains { $0 == prompt }, "the graded card is in front again")
            #expect(back.contains { $0.contains(" 1 ○ ") } && !back.contains { $0.contains(" ● ") }, "unanswered")
            try await a.waitFor("Review  0 new · 0 learning · 18 due")
            try await b.waitFor("B hears of the undo") { screen in
                screen.contains { $0.contains("Review  0 new · 0 learning · 18 due") }
            }

            try a.send("m")
            let memory = try await a.waitFor("Your memory")
            #expect(memory.contains { $0.contains("Cards due in the next 14 days") })
            #expect(memory.contains { $0.hasPrefix(" 18 ") }, "today's count under its bar")
            #expect(memory.contains { $0.contains("Reviews today: 0") }, "the grade taken back is no review")
            try a.send("m")
            try await a.waitFor("the card again") { $0.contains { $0 == prompt } }
        }

        @Test("remote: a grade, its undo and the memory picture through edugo-server")
        func remoteUndoAndMemory() async throws {
            let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
            defer {
                server.signal(SIGKILL)
                server.directory.remove()
            }
            let session = try await TmuxSession.onCatalog(of: server.baseURL)
            try session.send("M-5")
            let deck = try await session.waitFor("the deck, counted") { screen in
                screen.contains { $0.contains(" Review  ") && $0.contains(" due") } && screen.contains { $0.contains(" 1 ○ ") }
            }
            // The deck's counts (the tab bar above names Review too, and may say what is being saved).
            let header = try #require(deck.first { $0.contains(" Review  ") && $0.contains(" due") })
            try session.send("1", "Enter")
            let answered = try await session.waitFor("How well did it come back?")
            #expect(answered.last?.contains("a again 10m") == true, "the server's intervals on the grade keys")
            try session.send("g")
            try await session.waitFor("1 reviewed")
            try session.send("z")
            try await session.waitFor("Grade undone — answer the card again")
            try await session.waitFor("the counts as before") { $0.contains(header) }
            try session.send("m")
            let memory = try await session.waitFor("Your memory")
            #expect(memory.contains { $0.contains("True retention, last 30 days") })
        }
    }
}
