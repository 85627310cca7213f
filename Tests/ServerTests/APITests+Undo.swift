import Foundation
import ServerTestSupport
import SharedKernel
import Testing

/// Undo, the learner's settings and the memory picture over the real `edugo-server`.
extension APITests {
    @Test(
        "a grade taken back: the card as before, and once only; the deck's cards say each grade's interval by the learner's settings"
    )
    func undoAndIntervals() async throws {
        let (client, learner, server) = try await Self.enrolledLearner()
        let ref = QuestionRef(courseID: "learn-api", lesson: 1, question: 0)
        let later = Self.time.adding(seconds: 15 * 60)  // 09:45 UTC
        let first = try #require(
            try LearningRules.answer(
                [1], to: ref, question: Self.whichOne, holdsPlace: true, existing: nil, userID: learner, time: Self.time
            )
            .newCard)
        let settings = try ReviewSettings(retention: 0.8, learningSteps: [60, 600], relearningSteps: [300])
        let intervals = settings.intervals(for: first.card, at: later.now)
        let undo: [String: Any] = ["course_id": "learn-api", "lesson": 1, "question": 0, "reviewed_at": "2026-11-24T09:45:00Z"]

        _ = try await client.send(
            "PUT", "/v1/me/enrollments/learn-api/lessons/1/questions/0/answer", json: ["chosen": [1], "at": Self.at, "utc_offset": 3_600])
        let deck = try await client.get(
            "/v1/me/reviews?at=2026-11-24T09:45:00Z&utc_offset=3600&retention=0.8&learning_steps=60,600&relearning_steps=300")
        let nothingYet = try await client.send("POST", "/v1/me/reviews/undo", json: undo)
        let graded = try await client.send(
            "POST", "/v1/me/reviews",
            json: Self.review(
                grade: "again", ["at": "2026-11-24T09:45:00Z", "settings": ["retention": 0.8, "relearning_steps": [300]]]))
        let wrongTime = try await client.send(
            "POST", "/v1/me/reviews/undo", json: undo.merging(["reviewed_at": "2026-11-24T09:45:01Z"]) { _, new in new })
        let undone = try await client.send("POST", "/v1/me/reviews/undo", json: undo)
        let again = try await client.send("POST", "/v1/me/reviews/undo", json: undo)
        let after = try await client.get("/v1/me/reviews?at=2026-11-24T09:45:00Z&utc_offset=3600")
        withExtendedLifetime(server) {}

        let card = (deck.json["cards"] as? [[String: Any]])?.first
        let sent = card?["intervals"] as? [String: Any]
        #expect(deck.status == 200 && sent != nil)
        for grade in ReviewGrade.allCases {
            #expect(sent?[grade.rawValue] as? Int == Int(intervals[grade] ?? -1), "\(grade)")
        }
        #expect(nothingYet.status == 422 && nothingYet.errorCode == "nothing_to_undo")
        #expect(graded.status == 200 && graded.json["state"] as? String == "learning")
        #expect(wrongTime.status == 422 && wrongTime.errorCode == "nothing_to_undo", "not that grade's time")
        #expect(undone.status == 200 && Self.sameSchedule(undone.json, first), "the card as it was")
        #expect(again.status == 422 && again.errorCode == "nothing_to_undo", "once only")
        #expect(Self.counts(after) == [1, 0, 0], "new to review again")
    }

    @Test("bad undos, settings and memory requests are refused with their codes, and nothing is written")
    func badUndoSettingsMemory() async throws {
        let (client, _, server) = try await Self.enrolledLearner()
        _ = try await client.send(
            "PUT", "/v1/me/enrollments/learn-api/lessons/1/questions/0/answer", json: ["chosen": [1], "at": Self.at])
        let undo: [String: Any] = ["course_id": "learn-api", "lesson": 1, "question": 0, "reviewed_at": "2026-11-24T09:45:00Z"]
        var answers: [(String, HTTPAnswer, Int, String)] = []
        for (name, body, status) in [
            ("a fraction of a second", undo.merging(["reviewed_at": "2026-11-24T09:45:00.5Z"]) { _, new in new }, 400),
            ("the year 10000", undo.merging(["reviewed_at": "10000-01-01T00:00:00Z"]) { _, new in new }, 400),
            ("a course id that is none", undo.merging(["course_id": "no such course!"]) { _, new in new }, 422),
            ("a field it does not take", undo.merging(["grade": "good"]) { _, new in new }, 422),
        ] as [(String, [String: Any], Int)] {
            answers.append((name, try await client.send("POST", "/v1/me/reviews/undo", json: body), status, "invalid_request"))
        }
        for (name, settings) in [
            ("a retention too high", ["retention": 0.99]), ("a retention too low", ["retention": 0.5]),
            ("a step of a week", ["learning_steps": [604_800]]), ("a step of 0", ["relearning_steps": [0]]),
            ("eleven steps", ["learning_steps": Array(repeating: 60, count: 11)]), ("a setting there is not", ["maximum": 3]),
        ] as [(String, [String: Any])] {
            let review = Self.review(grade: "good", ["at": "2026-11-24T09:45:00Z", "settings": settings])
            answers.append((name, try await client.send("POST", "/v1/me/reviews", json: review), 422, "invalid_request"))
        }
        for (name, query) in [
            ("a deck's retention too high", "retention=0.98"), ("a deck's steps that are not numbers", "learning_steps=1m,10m"),
            ("a deck's step of 0", "relearning_steps=0"),
        ] {
            answers.append((name, try await client.get("/v1/me/reviews?at=2026-11-24T09:45:00Z&\(query)"), 400, "invalid_request"))
        }
        answers.append(("a memory without at", try await client.get("/v1/me/memory"), 400, "invalid_request"))
        answers.append(("a memory at no time", try await client.get("/v1/me/memory?at=10000-01-01T00:00:00Z"), 400, "invalid_request"))
        let anonymous = try await HTTPClient(baseURL: server.baseURL).get("/v1/me/memory?at=2026-11-24T09:45:00Z")
        let deck = try await client.get("/v1/me/reviews?at=2026-11-24T09:45:00Z")
        let memory = try await client.get("/v1/me/memory?at=2026-11-24T09:45:00Z&utc_offset=3600")
        withExtendedLifetime(server) {}

        for (name, answer, status, code) in answers {
            #expect(answer.status == status && answer.errorCode == code, "\(name): \(answer.status) \(answer.errorCode ?? "")")
        }
        #expect(anonymous.status == 401)
        #expect(Self.counts(deck) == [1, 0, 0], "no bad review was written")
        #expect(memory.status == 200 && memory.json["reviews_today"] as? Int == 0 && memory.json["reviewed"] as? Int == 0)
        #expect((memory.json["forecast"] as? [Int])?.count == 14 && (memory.json["forecast"] as? [Int])?.first == 1)
    }
}
