import EduGoAPI
import Foundation
import Testing

/// The review deck's JSON as openapi.yaml gives it: FSRS schedules, the learner's time as `at`
/// and `utc_offset`, instants in RFC 3339 whole seconds (as the generated code's default, and
/// `.iso8601`, read and write them).
@Suite("EduGoAPI: the review deck's shapes")
struct ReviewShapesTests {
    static let deck = Data(
        """
        {"cards": [
          {"course_id": "c", "lesson": 1, "question": 0, "course_title": "C", "lesson_title": "L",
           "content": {"prompt": "Which?", "choices": ["A", "B"], "correct": [1], "explanation": "B."},
           "schedule": {"state": "learning", "step": 1, "stability": 2.3065, "difficulty": 2.118,
                        "due": "2026-11-24T09:40:00Z", "last_review": "2026-11-24T09:30:00Z", "reviews": 0},
           "intervals": {"again": 60, "hard": 360, "good": 600, "easy": 172800}},
          {"course_id": "c", "lesson": 1, "question": 1, "course_title": "C", "lesson_title": "L",
           "content": {"prompt": "Which?", "choices": ["A", "B"], "correct": [0], "explanation": "A."},
           "schedule": {"state": "review", "step": null, "stability": 12.5, "difficulty": 5,
                        "due": "2026-12-06T09:45:00Z", "reviews": 3},
           "intervals": {"again": 600, "hard": 1036800, "good": 1555200, "easy": 2592000}}],
         "new_count": 1, "learning_count": 0, "due_count": 1, "coming_back": "2026-11-24T09:31:00Z"}
        """.utf8)

    /// As the generated code reads and writes the API: RFC 3339 instants (keys sorted, to compare).
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    @Test("a deck: each card's FSRS schedule, the counts of each part, and when a card comes back")
    func decodesADeck() throws {
        let decoder = Self.decoder()

        let deck = try decoder.decode(Components.Schemas.ReviewDeck.self, from: Self.deck)

        #expect(deck.newCount == 1 && deck.learningCount == 0 && deck.dueCount == 1)
        #expect(deck.comingBack == Date(timeIntervalSince1970: 1_795_512_660))
        let learning = try #require(deck.cards.first?.schedule)
        #expect(learning.state == .learning && learning.step == 1 && learning.reviews == 0)
        #expect(learning.stability == 2.3065 && learning.difficulty == 2.118)
        #expect(learning.due == Date(timeIntervalSince1970: 1_795_513_200))
        #expect(learning.lastReview == Date(timeIntervalSince1970: 1_795_512_600))
        let review = try #require(deck.cards.last?.schedule)
        #expect(review.state == .review && review.step == nil && review.lastReview == nil && review.reviews == 3)
        let intervals = try #require(deck.cards.first?.intervals)
        #expect([intervals.again, intervals.hard, intervals.good, intervals.easy] == [60, 360, 600, 172_800], "each grade's interval")
    }

    @Test("a card without its grades' intervals (an older server's) has none; settings go in the requests, each left out the default")
    func intervalsAndSettings() throws {
        let (encoder, decoder) = (Self.encoder(), Self.decoder())
        let bare = String(decoding: Self.deck, as: UTF8.self).replacingOccurrences(
            of: #",\s*"intervals": \{[^}]*\}"#, with: "", options: .regularExpression)
        #expect(!bare.contains("intervals"))
        let older = try decoder.decode(Components.Schemas.ReviewDeck.self, from: Data(bare.utf8))
        #expect(older.cards.count == 2 && older.cards.allSatisfy { $0.intervals == nil })
        let request = Components.Schemas.ReviewRequest(
            courseId: "c", lesson: 1, question: 0, grade: .good, at: Date(timeIntervalSince1970: 1_795_512_600),
            settings: .init(retention: 0.85, learningSteps: [120]))
        #expect(
            String(decoding: try encoder.encode(request), as: UTF8.self)
                == #"{"at":"2026-11-24T09:30:00Z","course_id":"c","grade":"good","lesson":1,"question":0,"settings":{"learning_steps":[120],"retention":0.85}}"#
        )
    }

    @Test("a review request and an answer carry at and utc_offset; a day instead of at, or a state out of the three, does not decode")
    func learnersTime() throws {
        let (encoder, decoder) = (Self.encoder(), Self.decoder())
        let at = Date(timeIntervalSince1970: 1_795_512_600)

        let review = Components.Schemas.ReviewRequest(courseId: "c", lesson: 1, question: 0, grade: .good, at: at, utcOffset: 3_600)
        let answer = Components.Schemas.AnswerRequest(chosen: [1], at: at, utcOffset: -18_000)

        #expect(
            String(decoding: try encoder.encode(review), as: UTF8.self)
                == #"{"at":"2026-11-24T09:30:00Z","course_id":"c","grade":"good","lesson":1,"question":0,"utc_offset":3600}"#)
        #expect(
            String(decoding: try encoder.encode(answer), as: UTF8.self)
                == #"{"at":"2026-11-24T09:30:00Z","chosen":[1],"utc_offset":-18000}"#)
        #expect(throws: DecodingError.self) {
            try decoder.decode(
                Components.Schemas.ReviewRequest.self,
                from: Data(#"{"course_id": "c", "lesson": 1, "question": 0, "grade": "good", "day": "2026-11-24"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(
                Components.Schemas.CardSchedule.self,
                from: Data(#"{"state": "graduated", "due": "2026-11-24T09:40:00Z", "reviews": 1}"#.utf8))
        }
    }
}
