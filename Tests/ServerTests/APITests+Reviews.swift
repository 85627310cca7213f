import Foundation
import ServerTestSupport
import SharedKernel
import Testing

/// The API's review deck and reviews, by FSRS-6 at the learner's time, against the real
/// `edugo-server`: what it sends is what `LearningRules` decides, in whole seconds.
extension APITests {
    @Test(
        "the deck at the learner's time: new, learning and due counts, earliest due first, when a card in its steps comes back; a review once while not due again"
    )
    func deckAndReviews() async throws {
        let (client, learner, server) = try await Self.enrolledLearner()
        let question = "/v1/me/enrollments/learn-api/lessons/1/questions"
        let (ref0, ref1) = (
            QuestionRef(courseID: "learn-api", lesson: 1, question: 0), QuestionRef(courseID: "learn-api", lesson: 1, question: 1)
        )
        let later = Self.time.adding(seconds: 15 * 60)  // 09:45 UTC
        let first0 = try #require(
            try LearningRules.answer(
                [1], to: ref0, question: Self.whichOne, holdsPlace: true, existing: nil, userID: learner, time: Self.time
            )
            .newCard)
        let first1 = try #require(
            try LearningRules.answer(
                [0], to: ref1, question: Self.chooseAll, holdsPlace: true, existing: nil, userID: learner, time: Self.time
            )
            .newCard)
        let reviewed1 = try LearningRules.review(first1, grade: .good, ref: ref1, userID: learner, time: later).schedule

        _ = try await client.send("PUT", "\(question)/0/answer", json: ["chosen": [1], "at": Self.at, "utc_offset": 3_600])
        _ = try await client.send("PUT", "\(question)/1/answer", json: ["chosen": [0], "at": Self.at, "utc_offset": 3_600])
        let now = try await client.get("/v1/me/reviews?at=\(Self.at)&utc_offset=3600")
        let quarterPast = try await client.get("/v1/me/reviews?at=2026-11-24T09:45:00Z&utc_offset=3600&limit=1")
        let good = try await client.send(
            "POST", "/v1/me/reviews", json: Self.review(grade: "good", question: 1, ["at": "2026-11-24T09:45:00Z", "utc_offset": 3_600]))
        let twice = try await client.send(
            "POST", "/v1/me/reviews", json: Self.review(grade: "again", question: 1, ["at": "2026-11-24T09:45:00Z", "utc_offset": 3_600]))
        let notInDeck = try await client.send(
            "POST", "/v1/me/reviews",
            json: Self.review(grade: "good", question: 1, ["at": "2026-11-24T09:45:00Z"]).merging(["lesson": 2]) { _, new in new })
        let afterReview = try await client.get("/v1/me/reviews?at=2026-11-24T09:45:00Z&utc_offset=3600")
        let tenOClock = try await client.get("/v1/me/reviews?at=2026-11-24T10:00:00Z&utc_offset=3600")
        let habit = try await client.get("/v1/me/habit?day=2026-11-24&utc_offset=3600")
        let anonymous = try await HTTPClient(baseURL: server.baseURL).get("/v1/me/reviews?at=\(Self.at)")

        #expect(Self.wire(first0.card.due) == "2026-11-24T09:40:00Z" && Self.wire(first1.card.due) == "2026-11-24T09:31:00Z", "the steps")
        #expect(Self.counts(now) == [0, 0, 0] && (now.json["cards"] as? [Any])?.isEmpty == true)
        #expect(now.json["coming_back"] as? String == "2026-11-24T09:31:00Z", "the wrong answer's card, in a minute")
        let cards = quarterPast.json["cards"] as? [[String: Any]] ?? []
        #expect(Self.counts(quarterPast) == [2, 0, 0] && cards.count == 1 && Self.isAbsent(quarterPast.json["coming_back"]))
        #expect(cards.first?["question"] as? Int == 1, "earliest due first")
        #expect(cards.first?["lesson_title"] as? String == "Welcome" && cards.first?["course_title"] as? String == "Learning API")
        #expect((cards.first?["content"] as? [String: Any])?["prompt"] as? String == "Choose all")
        #expect(Self.sameSchedule(cards.first?["schedule"], first1))
        #expect(good.status == 200 && Self.sameSchedule(good.json, reviewed1))
        #expect(good.json["state"] as? String == "learning" && good.json["step"] as? Int == 1 && good.json["reviews"] as? Int == 1)
        #expect(good.json["due"] as? String == "2026-11-24T09:55:00Z" && good.json["last_review"] as? String == "2026-11-24T09:45:00Z")
        #expect(twice.status == 422 && twice.errorCode == "card_not_due", "not due again until 09:55: refused")
        #expect(notInDeck.status == 404 && notInDeck.errorCode == "lesson_not_found")
        #expect(Self.counts(afterReview) == [1, 0, 0] && afterReview.json["coming_back"] as? String == "2026-11-24T09:55:00Z")
        #expect(Self.counts(tenOClock) == [1, 1, 0] && Self.isAbsent(tenOClock.json["coming_back"]))
        #expect(habit.status == 200 && habit.json["streak_days"] as? Int == 1)
        #expect(anonymous.status == 401)
    }

    @Test("a card in review is due on the learner's day of its due instant, from its first second, by utc_offset")
    func reviewCardDueOnItsDay() async throws {
        let (client, learner, server) = try await Self.enrolledLearner()
        let ref = QuestionRef(courseID: "learn-api", lesson: 1, question: 0)
        let later = Self.time.adding(seconds: 15 * 60)
        let first = try #require(
            try LearningRules.answer(
                [1], to: ref, question: Self.whichOne, holdsPlace: true, existing: nil, userID: learner, time: Self.time
            )
            .newCard)
        let graduated = try LearningRules.review(first, grade: .good, ref: ref, userID: learner, time: later).schedule
        // The first second of the day it is due on, an hour east of UTC.
        let dayStart = StudyTime.end(of: LearnerDay(graduated.card.due, secondsFromGMT: 3_600).adding(days: -1), secondsFromGMT: 3_600)

        _ = try await client.send(
            "PUT", "/v1/me/enrollments/learn-api/lessons/1/questions/0/answer", json: ["chosen": [1], "at": Self.at, "utc_offset": 3_600])
        let reviewed = try await client.send(
            "POST", "/v1/me/reviews", json: Self.review(grade: "good", ["at": Self.wire(later.now), "utc_offset": 3_600]))
        let onItsDay = try await client.get("/v1/me/reviews?at=\(Self.wire(dayStart))&utc_offset=3600")
        let theSecondBefore = try await client.get("/v1/me/reviews?at=\(Self.wire(dayStart.addingTimeInterval(-1)))&utc_offset=3600")
        let inUTC = try await client.get("/v1/me/reviews?at=\(Self.wire(dayStart))")
        withExtendedLifetime(server) {}

        #expect(graduated.card.state == .review)
        #expect(
            LearnerDay(graduated.card.due, secondsFromGMT: 0) == LearnerDay(graduated.card.due, secondsFromGMT: 3_600),
            "09:45 UTC: the same day in UTC, which begins an hour later")
        #expect(reviewed.status == 200 && Self.sameSchedule(reviewed.json, graduated))
        #expect(reviewed.json["state"] as? String == "review" && Self.isAbsent(reviewed.json["step"]))
        #expect(Self.counts(onItsDay) == [0, 0, 1] && (onItsDay.json["cards"] as? [Any])?.count == 1)
        #expect(Self.counts(theSecondBefore) == [0, 0, 0])
        #expect(Self.counts(inUTC) == [0, 0, 0], "23:00 the day before, in UTC")
    }

    @Test("a review that FSRS would put past the year 9999 is due at 9999-12-31T23:59:59Z, the last instant the API tells")
    func lastInstant() async throws {
        let (client, _, server) = try await Self.enrolledLearner()
        _ = try await client.send(
            "PUT", "/v1/me/enrollments/learn-api/lessons/1/questions/0/answer", json: ["chosen": [1], "at": "9999-12-31T11:00:00Z"])

        let reviewed = try await client.send("POST", "/v1/me/reviews", json: Self.review(grade: "good", ["at": "9999-12-31T11:30:00Z"]))
        let deck = try await client.get("/v1/me/reviews?at=9999-12-31T12:00:00Z")
        withExtendedLifetime(server) {}

        #expect(reviewed.status == 200 && reviewed.json["state"] as? String == "review")
        #expect(
            reviewed.json["due"] as? String == "9999-12-31T23:59:59Z" && reviewed.json["last_review"] as? String == "9999-12-31T11:30:00Z")
        #expect(Self.counts(deck) == [0, 0, 1])
        #expect(
            ((deck.json["cards"] as? [[String: Any]])?.first?["schedule"] as? [String: Any])?["due"] as? String == "9999-12-31T23:59:59Z")
    }

    /// An instant as the API writes it.
    static func wire(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// A field null or left out.
    static func isAbsent(_ value: Any?) -> Bool {
        value == nil || value is NSNull
    }

    /// A deck's new, learning and due counts.
    static func counts(_ deck: HTTPAnswer) -> [Int?] {
        ["new_count", "learning_count", "due_count"].map { deck.json[$0] as? Int }
    }

    /// Whether `sent` is `schedule` in the API's JSON, field by field (absent or null for nil).
    static func sameSchedule(_ sent: Any?, _ schedule: CardSchedule) -> Bool {
        guard let sent = sent as? [String: Any] else { return false }
        let card = schedule.card
        func number(_ key: String) -> Double? { sent[key] as? Double }
        func close(_ value: Double?, _ expected: Double?) -> Bool {
            switch (value, expected) {
            case (nil, nil): true
            case (let value?, let expected?): abs(value - expected) <= 1e-9 * max(1, abs(expected))
            default: false
            }
        }
        let states: [FSRSCardState: String] = [.learning: "learning", .review: "review", .relearning: "relearning"]
        return sent["state"] as? String == states[card.state] && sent["step"] as? Int == card.step
            && close(number("stability"), card.stability) && close(number("difficulty"), card.difficulty)
            && sent["due"] as? String == wire(card.due) && sent["last_review"] as? String == card.lastReview.map(wire)
            && sent["reviews"] as? Int == schedule.reviews
    }
}
