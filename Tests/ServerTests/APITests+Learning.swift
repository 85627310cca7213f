import Foundation
import Platform
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

/// The API's lessons, answers and reviews, against the real `edugo-server`.
extension APITests {
    static let learningCourse = CourseEntry(
        course: .fixture(id: "learn-api", title: "Learning API"),
        lessons: [
            Lesson(
                title: "Welcome", minutes: 10,
                content: LessonContent(
                    body: "## Hello\n\nSome *text*.",
                    questions: [
                        Question(prompt: "Which one?", choices: ["A", "B", "C"], correct: [1], explanation: "B, because."),
                        Question(prompt: "Choose all", choices: ["X", "Y", "Z"], correct: [0, 2], explanation: "X and Z."),
                    ])),
            Lesson(title: "Title only", minutes: 10),
        ])

    @Test("GET /v1/courses/{id}/lessons/{n}: public; the body and questions; null body for a title-only lesson; 404 past the syllabus")
    func lessonContent() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory(courses: [Self.learningCourse]))
        let client = HTTPClient(baseURL: server.baseURL)

        let first = try await client.get("/v1/courses/learn-api/lessons/1")
        let titleOnly = try await client.get("/v1/courses/learn-api/lessons/2")
        let past = try await client.get("/v1/courses/learn-api/lessons/3")
        let huge = try await client.get("/v1/courses/learn-api/lessons/9223372036854775807")
        let noCourse = try await client.get("/v1/courses/no-such-course/lessons/1")
        let course = try await client.get("/v1/courses/learn-api")

        #expect(first.status == 200 && first.json["body"] as? String == "## Hello\n\nSome *text*.")
        let questions = first.json["questions"] as? [[String: Any]] ?? []
        #expect(questions.map { $0["prompt"] as? String } == ["Which one?", "Choose all"])
        #expect(questions.map { $0["choose"] as? Int } == [1, 2], "how many are right")
        #expect(questions.first?["choices"] as? [String] == ["A", "B", "C"])
        #expect(questions.allSatisfy { $0["correct"] == nil && $0["explanation"] == nil }, "no answers given away before answering (SPEC)")
        #expect(titleOnly.status == 200 && (titleOnly.json["body"] == nil || titleOnly.json["body"] is NSNull))
        #expect((titleOnly.json["questions"] as? [Any])?.isEmpty == true)
        #expect(past.status == 404 && past.errorCode == "lesson_not_found")
        #expect(huge.status == 404 && huge.errorCode == "lesson_not_found")
        #expect(noCourse.status == 404 && noCourse.errorCode == "course_not_found")
        #expect((course.json["lessons"] as? [[String: Any]])?.map { $0["question_count"] as? Int } == [2, 0])
    }

    @Test(
        "answers: a place is needed; the first answer is kept; the day is the learner's, checked; the deck, a review once a day, the habit"
    )
    func answersAndReviews() async throws {
        // Not the demo learner, whose own cards fall due by the wall clock.
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(learners: 1, courses: [Self.learningCourse]))
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn(email: "learner1@example.com", password: "password-1")
        let question = "/v1/me/enrollments/learn-api/lessons/1/questions"

        let withoutPlace = try await client.send("PUT", "\(question)/0/answer", json: ["chosen": [1], "day": "2026-11-24"])
        _ = try await client.send("PUT", "/v1/me/enrollments/learn-api")
        let notADay = try await client.send("PUT", "\(question)/0/answer", json: ["chosen": [1], "day": "2026-02-30"])
        let right = try await client.send("PUT", "\(question)/0/answer", json: ["chosen": [1], "day": "2026-11-24"])
        let again = try await client.send("PUT", "\(question)/0/answer", json: ["chosen": [0], "day": "2026-11-25"])
        let noChoice = try await client.send("PUT", "\(question)/1/answer", json: ["chosen": [5], "day": "2026-11-24"])
        let noQuestion = try await client.send("PUT", "\(question)/2/answer", json: ["chosen": [0], "day": "2026-11-24"])
        let wrong = try await client.send("PUT", "\(question)/1/answer", json: ["chosen": [0], "day": "2026-11-24"])
        let answers = try await client.get("/v1/me/enrollments/learn-api/answers")

        #expect(withoutPlace.status == 404 && withoutPlace.errorCode == "not_enrolled")
        #expect(notADay.status == 422 && notADay.errorCode == "invalid_request")
        #expect(right.status == 200 && right.json["is_right"] as? Bool == true && right.json["chosen"] as? [Int] == [1])
        #expect(again.status == 200 && again.json["chosen"] as? [Int] == [1], "the first answer is kept")
        #expect(noChoice.status == 422 && noChoice.errorCode == "invalid_request", "a choice the question does not have")
        #expect(noQuestion.status == 404 && noQuestion.errorCode == "lesson_not_found")
        #expect(wrong.json["is_right"] as? Bool == false)
        #expect(
            wrong.json["correct"] as? [Int] == [0, 2] && wrong.json["explanation"] as? String == "X and Z.",
            "the answer brings the right choices and why")
        let listed = answers.json["answers"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["question"] as? Int } == [0, 1] && listed.allSatisfy { $0["course_id"] as? String == "learn-api" })

        let today = try await client.get("/v1/me/reviews?day=2026-11-24")
        let tomorrow = try await client.get("/v1/me/reviews?day=2026-11-25&limit=1")
        let badDay = try await client.get("/v1/me/reviews?day=tomorrow")
        let good = try await client.send(
            "POST", "/v1/me/reviews", json: ["course_id": "learn-api", "lesson": 1, "question": 0, "grade": "good", "day": "2026-11-25"])
        let twice = try await client.send(
            "POST", "/v1/me/reviews", json: ["course_id": "learn-api", "lesson": 1, "question": 0, "grade": "again", "day": "2026-11-25"])
        let notInDeck = try await client.send(
            "POST", "/v1/me/reviews", json: ["course_id": "learn-api", "lesson": 2, "question": 0, "grade": "good", "day": "2026-11-25"])
        let habit = try await client.get("/v1/me/habit?day=2026-11-25&utc_offset=3600")
        let badOffset = try await client.get("/v1/me/habit?day=2026-11-25&utc_offset=90000")
        let anonymous = try await HTTPClient(baseURL: server.baseURL).get("/v1/me/reviews?day=2026-11-25")

        #expect(today.status == 200 && today.json["due_count"] as? Int == 0 && (today.json["cards"] as? [Any])?.isEmpty == true)
        let cards = tomorrow.json["cards"] as? [[String: Any]] ?? []
        #expect(tomorrow.json["due_count"] as? Int == 2 && cards.count == 1)
        #expect(cards.first?["lesson_title"] as? String == "Welcome" && cards.first?["course_title"] as? String == "Learning API")
        #expect((cards.first?["content"] as? [String: Any])?["prompt"] as? String == "Which one?")
        #expect((cards.first?["schedule"] as? [String: Any])?["due"] as? String == "2026-11-25")
        #expect(badDay.status == 400 && badDay.errorCode == "invalid_request")
        #expect(good.status == 200 && good.json["due"] as? String == "2026-12-01" && good.json["repetitions"] as? Int == 2)
        #expect(twice.status == 200 && twice.json["due"] as? String == "2026-12-01", "a card is reviewed once a day")
        #expect(notInDeck.status == 404 && notInDeck.errorCode == "lesson_not_found")
        #expect(habit.status == 200 && habit.json["streak_days"] as? Int == 2 && habit.json["due_count"] as? Int == 1)
        #expect(badOffset.status == 400 && badOffset.errorCode == "invalid_request")
        #expect(anonymous.status == 401)
    }

    @Test("chosen is 1 to 6 different choices of the question, else 422 invalid_request, also once an answer is kept")
    func chosenChoices() async throws {
        let (client, server) = try await Self.enrolledLearner()
        let answer = "/v1/me/enrollments/learn-api/lessons/1/questions/0/answer"
        let refused: [[Int]] = [[0, 1, 2, 0, 1, 2, 0], [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2], [1, 1], [], [3]]

        let before = try await asyncMap(refused) { try await client.send("PUT", answer, json: ["chosen": $0, "day": "2026-11-24"]) }
        let kept = try await client.send("PUT", answer, json: ["chosen": [1], "day": "2026-11-24"])
        let after = try await asyncMap(refused) { try await client.send("PUT", answer, json: ["chosen": $0, "day": "2026-11-24"]) }
        withExtendedLifetime(server) {}

        #expect(before.map(\.status) == Array(repeating: 422, count: refused.count))
        #expect(before.allSatisfy { $0.errorCode == "invalid_request" })
        #expect(kept.status == 200 && kept.json["chosen"] as? [Int] == [1])
        #expect(after.map(\.status) == Array(repeating: 422, count: refused.count), "not the kept answer")
    }

    @Test("a review on 9999-12-30 that SM-2 would put in the year 10000 is due 9999-12-31, the last day a day can be")
    func lastDay() async throws {
        let (client, server) = try await Self.enrolledLearner()
        _ = try await client.send(
            "PUT", "/v1/me/enrollments/learn-api/lessons/1/questions/0/answer", json: ["chosen": [1], "day": "9999-12-29"])

        let reviewed = try await client.send(
            "POST", "/v1/me/reviews", json: ["course_id": "learn-api", "lesson": 1, "question": 0, "grade": "good", "day": "9999-12-30"])
        let deck = try await client.get("/v1/me/reviews?day=9999-12-31")
        withExtendedLifetime(server) {}

        #expect(reviewed.status == 200 && reviewed.json["due"] as? String == "9999-12-31")
        #expect(reviewed.json["interval_days"] as? Int == 6)
        #expect(deck.json["due_count"] as? Int == 1)
    }

    /// The server with `learningCourse`, and a learner of its own enrolled in it (not the demo
    /// learner, whose own cards fall due by the wall clock). Keep the server while it is used.
    private static func enrolledLearner() async throws -> (HTTPClient, ServerProcess) {
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(learners: 1, courses: [Self.learningCourse]))
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn(email: "learner1@example.com", password: "password-1")
        _ = try await client.send("PUT", "/v1/me/enrollments/learn-api")
        return (client, server)
    }

    private func asyncMap<T, U>(_ items: [T], _ body: (T) async throws -> U) async throws -> [U] {
        var results: [U] = []
        for item in items { results.append(try await body(item)) }
        return results
    }
}
