import Foundation
import Hummingbird
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import RemoteStore

/// A hostile server's schedules and decks: a schedule FSRS cannot work with never becomes a
/// card of the app; a deck whose counts or coming back make no sense is connectivity.
extension HostileLearningServerTests {
    enum Outcome: Sendable {
        /// Taken as it is.
        case accepted
        /// Read, and refused by the check of a schedule's values: the card is left out of a
        /// deck, and a review's answer is connectivity.
        case refused
        /// Not JSON of the API's shape: the whole answer is connectivity.
        case unreadable
    }

    /// A schedule's JSON, and what becomes of it.
    static let schedules: [(name: String, json: String, outcome: Outcome)] = [
        ("a card in its steps", schedule, .accepted),
        (
            "a card in review",
            #"{"state": "review", "stability": 12.5, "difficulty": 5, "due": "2026-12-06T09:45:00Z", "last_review": "2026-11-24T09:45:00Z", "reviews": 3}"#,
            .accepted
        ),
        (
            "a card relearning",
            #"{"state": "relearning", "step": 0, "stability": 0.4, "difficulty": 9.5, "due": "2026-11-24T09:55:00Z", "reviews": 4}"#,
            .accepted
        ),
        (
            "one carried over from SM-2 before its first interval",
            #"{"state": "learning", "step": 0, "due": "2026-11-24T12:00:00Z", "reviews": 1}"#, .accepted
        ),
        (
            "null for what it has not",
            #"{"state": "learning", "step": 0, "stability": null, "difficulty": null, "due": "2026-11-24T12:00:00Z", "last_review": null, "reviews": 1}"#,
            .accepted
        ),
        (
            "due at the last second of 9999",
            #"{"state": "review", "stability": 300, "difficulty": 3, "due": "9999-12-31T23:59:59Z", "reviews": 9}"#, .accepted
        ),
        ("negative reviews", #"{"state": "learning", "step": 0, "due": "2026-11-24T12:00:00Z", "reviews": -1}"#, .refused),
        ("two million reviews", #"{"state": "learning", "step": 0, "due": "2026-11-24T12:00:00Z", "reviews": 2000000}"#, .refused),
        (
            "a negative stability", #"{"state": "review", "stability": -1, "difficulty": 5, "due": "2026-11-25T09:30:00Z", "reviews": 1}"#,
            .refused
        ),
        (
            "a difficulty of 11", #"{"state": "review", "stability": 3, "difficulty": 11, "due": "2026-11-25T09:30:00Z", "reviews": 1}"#,
            .refused
        ),
        (
            "a difficulty under 1", #"{"state": "review", "stability": 3, "difficulty": 0.5, "due": "2026-11-25T09:30:00Z", "reviews": 1}"#,
            .refused
        ),
        (
            "a stability without a difficulty", #"{"state": "review", "stability": 3, "due": "2026-11-25T09:30:00Z", "reviews": 1}"#,
            .refused
        ),
        (
            "due in the year 10000", #"{"state": "review", "stability": 3, "difficulty": 5, "due": "10000-01-01T00:00:00Z", "reviews": 1}"#,
            .refused
        ),
        ("due in the year 0", #"{"state": "learning", "step": 0, "due": "0000-06-01T00:00:00Z", "reviews": 1}"#, .refused),
        (
            "last reviewed in the year 10000",
            #"{"state": "review", "stability": 3, "difficulty": 5, "due": "2026-11-25T09:30:00Z", "last_review": "10000-01-01T00:00:00Z", "reviews": 1}"#,
            .refused
        ),
        (
            "a step in review",
            #"{"state": "review", "step": 0, "stability": 3, "difficulty": 5, "due": "2026-11-25T09:30:00Z", "reviews": 1}"#, .refused
        ),
        ("no step while learning", #"{"state": "learning", "due": "2026-11-24T12:00:00Z", "reviews": 1}"#, .refused),
        ("a negative step", #"{"state": "learning", "step": -1, "due": "2026-11-24T12:00:00Z", "reviews": 1}"#, .refused),
        ("a state out of the three", #"{"state": "graduated", "due": "2026-11-24T12:00:00Z", "reviews": 1}"#, .unreadable),
        ("a due time with a fraction", #"{"state": "learning", "step": 0, "due": "2026-11-24T12:00:00.5Z", "reviews": 1}"#, .unreadable),
        (
            "a stability past any number",
            #"{"state": "review", "stability": 1e400, "difficulty": 5, "due": "2026-11-25T09:30:00Z", "reviews": 1}"#, .unreadable
        ),
        (
            "reviews past any integer",
            #"{"state": "learning", "step": 0, "due": "2026-11-24T12:00:00Z", "reviews": 99999999999999999999}"#, .unreadable
        ),
        ("no due", #"{"state": "learning", "step": 0, "reviews": 1}"#, .unreadable),
    ]

    @Test(
        "a schedule out of range is left out of a deck and is connectivity as a review's answer; one not of the API's shape is connectivity",
        arguments: schedules.indices)
    func scheduleOutOfRange(_ index: Int) async throws {
        let (name, json, outcome) = Self.schedules[index]
        let router = Router()
        RouterServer.addSignIn(to: router)
        router.get("/v1/me/reviews") { _, _ in
            RouterServer.json(
                #"{"cards": [\#(Self.card(lesson: "1", schedule: json)), \#(Self.card(lesson: "2"))], "new_count": 0, "learning_count": 1, "due_count": 1}"#
            )
        }
        router.post("/v1/me/reviews") { _, _ in RouterServer.json(json) }
        let server = try await RouterServer.start(router)
        let url = server.url
        try await server.stopping {
            let client = TemporaryDirectory(prefix: "edugo-hostile-learning")
            defer { client.remove() }
            let store = RemoteStore(server: url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
            let learner = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo").id
            let ref = QuestionRef(courseID: "c", lesson: 1, question: 0)

            let deck = await Self.result { () async throws(AppError) in
                try await store.reviewDeck(userID: learner, at: Self.time, limit: 10)
            }
            let review = await Self.result { () async throws(AppError) in
                try await store.review(ref, grade: .good, userID: learner, at: Self.time)
            }

            switch outcome {
            case .accepted:
                #expect(try deck.get().cards.map(\.ref.lesson) == [1, 2], "\(name)")
                #expect(try review.get() == deck.get().cards.first?.schedule, "\(name): the same schedule either way")
            case .refused:
                #expect(try deck.get().cards.map(\.ref.lesson) == [2], "\(name): the card is left out")
                #expect(review.failure == .connectivity, "\(name)")
            case .unreadable:
                #expect(deck.failure == .connectivity && review.failure == .connectivity, "\(name)")
            }
        }
    }

    /// A deck's counts and coming back, at `time` (its day ends at 23:00 UTC), and whether the
    /// client takes it.
    static let decks: [(name: String, json: String, accepted: Bool)] = [
        ("a card, coming back in a minute", deckJSON(counts: "1, 0, 0", comingBack: #""2026-11-24T09:31:00Z""#), true),
        ("none coming back", deckJSON(counts: "1, 0, 0", comingBack: "null"), true),
        ("coming back at the day's last second", deckJSON(counts: "0, 1, 0", comingBack: #""2026-11-24T22:59:59Z""#), true),
        ("more cards than counted", deckJSON(counts: "0, 0, 0", comingBack: "null"), false),
        ("a negative count", deckJSON(counts: "2, -1, 0", comingBack: "null"), false),
        ("a count past the largest", deckJSON(counts: "1, 0, 3000000000", comingBack: "null"), false),
        ("coming back before now", deckJSON(counts: "1, 0, 0", comingBack: #""2026-11-24T09:29:59Z""#), false),
        ("coming back now", deckJSON(counts: "1, 0, 0", comingBack: #""2026-11-24T09:30:00Z""#), false),
        ("coming back when the learner's day is over", deckJSON(counts: "1, 0, 0", comingBack: #""2026-11-24T23:00:00Z""#), false),
        ("coming back in the year 10000", deckJSON(counts: "1, 0, 0", comingBack: #""10000-01-01T00:00:00Z""#), false),
        ("no counts but the due one (an older server)", #"{"cards": [\#(card(lesson: "1"))], "due_count": 1}"#, false),
    ]

    @Test(
        "counts out of range, fewer than the cards, or a card coming back not later on the learner's day are connectivity",
        arguments: decks.indices)
    func deckCounts(_ index: Int) async throws {
        let (name, json, accepted) = Self.decks[index]
        let router = Router()
        RouterServer.addSignIn(to: router)
        router.get("/v1/me/reviews") { _, _ in RouterServer.json(json) }
        let server = try await RouterServer.start(router)
        let url = server.url
        try await server.stopping {
            let client = TemporaryDirectory(prefix: "edugo-hostile-learning")
            defer { client.remove() }
            let store = RemoteStore(server: url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
            let learner = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo").id

            let deck = await Self.result { () async throws(AppError) in
                try await store.reviewDeck(userID: learner, at: Self.time, limit: 10)
            }

            #expect(deck.failure == (accepted ? nil : .connectivity), "\(name)")
            if index == 0 {
                let taken = try deck.get()
                #expect(taken.newCount == 1 && taken.learningCount == 0 && taken.dueCount == 0 && taken.cards.count == 1)
                #expect(taken.comingBack == Date(timeIntervalSince1970: 1_795_512_660))
            }
        }
    }

    @Test("a card whose grades' intervals are negative or past 100 years and a day is left out; none (an older server's) is no interval")
    func intervalsOutOfRange() async throws {
        let router = Router()
        RouterServer.addSignIn(to: router)
        let past = (36_501 * 86_400) + 1
        router.get("/v1/me/reviews") { _, _ in
            let cards = [
                Self.card(lesson: "1", intervals: #"{"again": -1, "hard": 330, "good": 600, "easy": 86400}"#),
                Self.card(lesson: "2", intervals: #"{"again": 60, "hard": 330, "good": 600, "easy": \#(past)}"#),
                Self.card(lesson: "3"),
                Self.card(lesson: "4", intervals: #"{"again": 60, "hard": 330, "good": 600, "easy": \#(past - 1)}"#),
                Self.card(lesson: "5", intervals: "null"),
            ]
            return RouterServer.json(
                #"{"cards": [\#(cards.joined(separator: ", "))], "new_count": 0, "learning_count": 5, "due_count": 0}"#)
        }
        try await Self.signedIn(on: router) { store, learner in
            let deck = try await store.reviewDeck(userID: learner, at: Self.time, limit: 10)
            #expect(deck.cards.map(\.ref.lesson) == [3, 4, 5], "the cards whose intervals are in range, or not sent")
            #expect(deck.cards.last?.intervals == [:], "none sent: the app works them out")
            #expect(deck.cards.first?.intervals == [.again: 60, .hard: 330, .good: 600, .easy: 86_400], "as sent")
        }
    }

    /// A deck of one card with `counts` (new, learning, due) and `comingBack` (JSON).
    static func deckJSON(counts: String, comingBack: String) -> String {
        let values = counts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return
            #"{"cards": [\#(card(lesson: "1"))], "new_count": \#(values[0]), "learning_count": \#(values[1]), "due_count": \#(values[2]), "coming_back": \#(comingBack)}"#
    }

    static func result<T: Sendable>(_ body: () async throws(AppError) -> T) async -> Result<T, AppError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
