import Foundation
import Hummingbird
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import RemoteStore

/// A hostile server's lessons, answers and cards: nothing out of SPEC's limits becomes a value
/// of the app, nothing traps; a single answer out of range is connectivity, a bad item of a
/// list is left out.
@Suite("Hostile server: learning")
struct HostileLearningServerTests {
    static let question = #"{"prompt": "Which?", "choices": ["A", "B", "C"], "correct": [1], "explanation": "B."}"#

    /// A question as a lesson serves it: how many to choose, not which.
    static let asked = #"{"prompt": "Which?", "choices": ["A", "B", "C"], "choose": 1}"#

    /// A lesson's JSON, and whether the client takes it.
    static let lessons: [(name: String, json: String, accepted: Bool)] = [
        ("a sane lesson", ##"{"body": "# Hi", "questions": [\##(asked)]}"##, true),
        ("no body, no questions", #"{"body": null, "questions": []}"#, true),
        ("seven choices", #"{"questions": [{"prompt": "?", "choices": ["1","2","3","4","5","6","7"], "choose": 1}]}"#, false),
        ("one choice", #"{"questions": [{"prompt": "?", "choices": ["1"], "choose": 1}]}"#, false),
        ("more to choose than choices", #"{"questions": [{"prompt": "?", "choices": ["1","2"], "choose": 3}]}"#, false),
        ("a negative count", #"{"questions": [{"prompt": "?", "choices": ["1","2"], "choose": -1}]}"#, false),
        ("nothing to choose", #"{"questions": [{"prompt": "?", "choices": ["1","2"], "choose": 0}]}"#, false),
        ("a count past any integer", #"{"questions": [{"prompt": "?", "choices": ["1","2"], "choose": 99999999999999999999}]}"#, false),
        ("an empty prompt", #"{"questions": [{"prompt": "\u0007", "choices": ["1","2"], "choose": 1}]}"#, false),
        ("21 questions", #"{"questions": [\#(Array(repeating: asked, count: 21).joined(separator: ","))]}"#, false),
        ("a body past 256 KiB", #"{"body": "\#(String(repeating: "x", count: 262_145))", "questions": []}"#, false),
        ("a body with NUL", #"{"body": "a\u0000b", "questions": []}"#, false),
    ]

    @Test("a lesson out of range is connectivity; a sane one loads", arguments: lessons.indices)
    func lesson(_ index: Int) async throws {
        let (name, json, accepted) = Self.lessons[index]
        let router = Router()
        router.get("/v1/courses/:id/lessons/:n") { _, _ in RouterServer.json(json) }
        let server = try await RouterServer.start(router)
        let url = server.url
        try await server.stopping {
            let client = TemporaryDirectory(prefix: "edugo-hostile-learning")
            defer { client.remove() }
            let store = RemoteStore(server: url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())

            var failure: AppError?
            do throws(AppError) {
                _ = try await store.lessonContent(courseID: "any", lesson: 1)
            } catch {
                failure = error
            }

            #expect(failure == (accepted ? nil : .connectivity), "\(name): \(String(describing: failure))")
        }
    }

    @Test("a deck longer than asked, a habit or a schedule out of range are connectivity; a bad card or answer is left out")
    func deckHabitAndAnswers() async throws {
        let router = Router()
        RouterServer.addSignIn(to: router)
        router.get("/v1/me/reviews") { request, _ in
            let limit = request.uri.queryParameters.get("limit") ?? ""
            let cards = limit == "1" ? [Self.card(lesson: "1"), Self.card(lesson: "2")] : [Self.card(lesson: "0"), Self.card(lesson: "1")]
            return RouterServer.json(
                #"{"cards": [\#(cards.joined(separator: ","))], "new_count": 1, "learning_count": 0, "due_count": 1}"#)
        }
        router.get("/v1/me/habit") { _, _ in RouterServer.json(#"{"streak_days": -3, "due_count": 0}"#) }
        router.post("/v1/me/reviews") { _, _ in
            RouterServer.json(
                #"{"state": "review", "stability": 1.5, "difficulty": 11, "due": "2026-11-25T09:30:00Z", "last_review": "2026-11-24T09:30:00Z", "reviews": 1}"#
            )
        }
        router.get("/v1/me/enrollments/:id/answers") { _, _ in
            RouterServer.json(
                #"{"answers": [{"course_id": "c", "lesson": 1, "question": 0, "chosen": [7], "is_right": true, "correct": [0], "explanation": ""}, {"course_id": "c", "lesson": 1, "question": 1, "chosen": [0], "is_right": false, "correct": [1], "explanation": "B."}, {"course_id": "c", "lesson": 1, "question": 2, "chosen": [0], "is_right": false, "correct": [9], "explanation": ""}, {"course_id": "other", "lesson": 1, "question": 0, "chosen": [0], "is_right": false, "correct": [0], "explanation": ""}]}"#
            )
        }
        try await Self.signedIn(on: router) { store, learner in
            let day = try #require(LearnerDay(iso: "2026-11-24"))
            let ref = QuestionRef(courseID: "c", lesson: 1, question: 0)

            await #expect(throws: AppError.connectivity) { try await store.reviewDeck(userID: learner, at: Self.time, limit: 1) }
            let deck = try await store.reviewDeck(userID: learner, at: Self.time, limit: 10)
            await #expect(throws: AppError.connectivity) { try await store.habit(userID: learner, on: day, secondsFromGMT: 0) }
            await #expect(throws: AppError.connectivity) { try await store.review(ref, grade: .good, userID: learner, at: Self.time) }
            let answers = try await store.answers(userID: learner, courseID: "c")

            #expect(deck.cards.map(\.ref.lesson) == [1], "the card of lesson 0 is left out")
            #expect(deck.newCount == 1 && deck.learningCount == 0 && deck.dueCount == 1 && deck.comingBack == nil)
            #expect(
                answers.map(\.ref.question) == [1],
                "an answer of choice 7, one whose right choice is 9, and one of another course, are left out")
            #expect(answers.first?.correct == [1] && answers.first?.explanation == "B.", "what the answer reveals")
        }
    }

    @Test(
        "the learner's time goes as at, in whole seconds of UTC, and utc_offset: in the deck's query and in the answer's and review's bodies"
    )
    func sendsTheLearnersTime() async throws {
        let router = Router()
        RouterServer.addSignIn(to: router)
        // Each answers as the API does only when it was sent the time it expects; else 400, whose
        // message the store's error carries.
        router.get("/v1/me/reviews") { request, _ in
            let query = request.uri.queryParameters
            let sent =
                "at=\(query.get("at") ?? "none") utc_offset=\(query.get("utc_offset") ?? "none") limit=\(query.get("limit") ?? "none")"
            guard sent == "at=2026-11-24T09:30:00Z utc_offset=3600 limit=5" else { return Self.refusal(sent) }
            return RouterServer.json(#"{"cards": [], "new_count": 0, "learning_count": 0, "due_count": 0}"#)
        }
        router.put("/v1/me/enrollments/:id/lessons/:n/questions/:q/answer") { request, context in
            let sent = try await request.decode(as: SentTime.self, context: context)
            guard sent.description == "at=2026-11-24T09:30:00Z utc_offset=3600" else { return Self.refusal(sent.description) }
            return RouterServer.json(
                #"{"course_id": "c", "lesson": 1, "question": 0, "chosen": [1], "is_right": true, "correct": [1], "explanation": "B."}"#)
        }
        router.post("/v1/me/reviews") { request, context in
            let sent = try await request.decode(as: SentTime.self, context: context)
            guard sent.description == "at=2026-11-24T09:30:00Z utc_offset=3600" else { return Self.refusal(sent.description) }
            return RouterServer.json(Self.schedule)
        }
        try await Self.signedIn(on: router) { store, learner in
            let ref = QuestionRef(courseID: "c", lesson: 1, question: 0)
            // A clock between seconds: the time sent is the second it is in.
            let time = StudyTime(now: Date(timeIntervalSince1970: 1_795_512_600.75), secondsFromGMT: 3_600)

            let deck = try await store.reviewDeck(userID: learner, at: time, limit: 5)
            let answer = try await store.answer([1], to: ref, userID: learner, at: time)
            let schedule = try await store.review(ref, grade: .good, userID: learner, at: time)

            #expect(deck.total == 0 && deck.cards.isEmpty)
            #expect(answer.isRight && answer.chosen == [1])
            #expect(schedule.card.state == .learning && schedule.card.step == 1 && schedule.reviews == 0)
            #expect(schedule.card.due == Date(timeIntervalSince1970: 1_795_513_200) && schedule.card.lastReview == time.now)
            #expect(schedule.card.stability == 2.3065 && schedule.card.difficulty == 2.118)
        }
    }

    /// 09:30 UTC on 2026-11-24, 10:30 where the learner is (UTC+01:00).
    static let time = StudyTime(now: Date(timeIntervalSince1970: 1_795_512_600), secondsFromGMT: 3_600)

    /// A card's schedule as the API sends it: answered right at `time`, at its second step.
    static let schedule =
        #"{"state": "learning", "step": 1, "stability": 2.3065, "difficulty": 2.118, "due": "2026-11-24T09:40:00Z", "last_review": "2026-11-24T09:30:00Z", "reviews": 0}"#

    /// When each grade would bring the card back, as the API sends it.
    static let intervals = #"{"again": 60, "hard": 330, "good": 600, "easy": 86400}"#

    static func card(lesson: String, schedule: String = schedule, intervals: String = intervals) -> String {
        #"{"course_id": "c", "lesson": \#(lesson), "question": 0, "course_title": "C", "lesson_title": "L", "content": \#(question), "schedule": \#(schedule), "intervals": \#(intervals)}"#
    }

    /// The stand-in server of `router`, and a remote store on it with the demo learner signed
    /// in, for `body`; the server stops after it.
    static func signedIn(
        on router: Router<BasicRequestContext>, _ body: (RemoteStore, UserID) async throws -> Void
    ) async throws {
        let server = try await RouterServer.start(router)
        let url = server.url
        try await server.stopping {
            let client = TemporaryDirectory(prefix: "edugo-hostile-learning")
            defer { client.remove() }
            let store = RemoteStore(server: url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
            try await body(store, try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo").id)
        }
    }

    /// The API's 400, saying what was sent.
    static func refusal(_ sent: String) -> Response {
        RouterServer.json(#"{"error": "invalid_request", "message": "\#(sent)"}"#, status: .badRequest)
    }
}

/// What a body says of the learner's time, as written.
private struct SentTime: Decodable, CustomStringConvertible {
    let at: String
    let utcOffset: Int?

    enum CodingKeys: String, CodingKey {
        case at
        case utcOffset = "utc_offset"
    }

    var description: String { "at=\(at) utc_offset=\(utcOffset.map(String.init) ?? "none")" }
}
