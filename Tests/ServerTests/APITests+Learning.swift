import Foundation
import Platform
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

/// The API's lessons, answers and reviews, against the real `edugo-server`.
extension APITests {
    static let whichOne = Question(prompt: "Which one?", choices: ["A", "B", "C"], correct: [1], explanation: "B, because.")
    static let chooseAll = Question(prompt: "Choose all", choices: ["X", "Y", "Z"], correct: [0, 2], explanation: "X and Z.")

    static let learningCourse = CourseEntry(
        course: .fixture(id: "learn-api", title: "Learning API"),
        lessons: [
            Lesson(
                title: "Welcome", minutes: 10,
                content: LessonContent(
                    body: "## Hello\n\nSome *text*.",
                    questions: [whichOne, chooseAll])),
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

    @Test("answers: a place is needed; the first answer is kept, whatever its time; the answers in lesson order")
    func answers() async throws {
        // Not the demo learner, whose own cards fall due by the wall clock.
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(learners: 1, courses: [Self.learningCourse]))
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn(email: "learner1@example.com", password: "password-1")
        let question = "/v1/me/enrollments/learn-api/lessons/1/questions"

        let withoutPlace = try await client.send("PUT", "\(question)/0/answer", json: ["chosen": [1], "at": Self.at, "utc_offset": 3_600])
        _ = try await client.send("PUT", "/v1/me/enrollments/learn-api")
        let right = try await client.send("PUT", "\(question)/0/answer", json: ["chosen": [1], "at": Self.at, "utc_offset": 3_600])
        let again = try await client.send("PUT", "\(question)/0/answer", json: ["chosen": [0], "at": "2026-11-25T09:30:00Z"])
        let noChoice = try await client.send("PUT", "\(question)/1/answer", json: ["chosen": [5], "at": Self.at])
        let noQuestion = try await client.send("PUT", "\(question)/2/answer", json: ["chosen": [0], "at": Self.at])
        let wrong = try await client.send("PUT", "\(question)/1/answer", json: ["chosen": [0], "at": Self.at])
        let answers = try await client.get("/v1/me/enrollments/learn-api/answers")

        #expect(withoutPlace.status == 404 && withoutPlace.errorCode == "not_enrolled")
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
    }

    @Test(
        "at is RFC 3339 in whole seconds and utc_offset -64800…64800, on a day of the years 1–9999, else 400; a grade not one of the four is 422; nothing is written"
    )
    func studyTimeChecked() async throws {
        let (client, _, server) = try await Self.enrolledLearner()
        let answer = "/v1/me/enrollments/learn-api/lessons/1/questions/0/answer"
        let refusedAnswers: [[String: Any]] = [
            ["chosen": [1], "at": Self.at, "utc_offset": 64_801], ["chosen": [1], "at": "2026-11-24"],
            ["chosen": [1], "at": "2026-11-24T09:30:00.5Z"], ["chosen": [1], "at": "9999-12-31T23:30:00Z", "utc_offset": 3_600],
            ["chosen": [1], "at": "0000-12-31T12:00:00Z"], ["chosen": [1], "day": "2026-11-24"],
        ]
        let refusedReviews: [[String: Any]] = [
            ["at": Self.at, "utc_offset": -64_801], ["at": "tomorrow"], ["at": "2026-11-24T09:30:00.5Z"],
            ["at": "9999-12-31T23:30:00Z", "utc_offset": 3_600],
        ]
        let refusedDecks = [
            "", "?at=tomorrow", "?at=2026-11-24T09:30:00.5Z", "?at=\(Self.at)&utc_offset=-64801",
            "?at=0001-01-01T00:30:00Z&utc_offset=-3600",
        ]

        let answers = try await asyncMap(refusedAnswers) { try await client.send("PUT", answer, json: $0) }
        let reviews = try await asyncMap(refusedReviews) {
            try await client.send("POST", "/v1/me/reviews", json: Self.review(grade: "good", $0))
        }
        let decks = try await asyncMap(refusedDecks) { try await client.get("/v1/me/reviews\($0)") }
        let badGrade = try await client.send("POST", "/v1/me/reviews", json: Self.review(grade: "perfect", ["at": Self.at]))
        let oldShape = try await client.send("POST", "/v1/me/reviews", json: Self.review(grade: "good", ["day": "2026-11-24"]))
        let withOffset = try await client.get("/v1/me/reviews?at=2026-11-24T10:30:00%2B01:00&utc_offset=3600")
        let listed = try await client.get("/v1/me/enrollments/learn-api/answers")
        withExtendedLifetime(server) {}

        #expect(answers.map(\.status) == Array(repeating: 400, count: refusedAnswers.count), "\(answers.map(\.message))")
        #expect(reviews.map(\.status) == Array(repeating: 400, count: refusedReviews.count), "\(reviews.map(\.message))")
        #expect(decks.map(\.status) == Array(repeating: 400, count: refusedDecks.count), "\(decks.map(\.message))")
        #expect((answers + reviews + decks).allSatisfy { $0.errorCode == "invalid_request" })
        #expect(badGrade.status == 422 && badGrade.errorCode == "invalid_request")
        #expect(oldShape.status == 422 && oldShape.errorCode == "invalid_request", "a day instead of at")
        #expect(withOffset.status == 200 && withOffset.json["new_count"] as? Int == 0, "an offset, written %2B in a query")
        #expect((listed.json["answers"] as? [Any])?.isEmpty == true, "nothing answered")
    }

    @Test("chosen is 1 to 6 different choices of the question, else 422 invalid_request, also once an answer is kept")
    func chosenChoices() async throws {
        let (client, _, server) = try await Self.enrolledLearner()
        let answer = "/v1/me/enrollments/learn-api/lessons/1/questions/0/answer"
        let refused: [[Int]] = [[0, 1, 2, 0, 1, 2, 0], [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2], [1, 1], [], [3]]

        let before = try await asyncMap(refused) { try await client.send("PUT", answer, json: ["chosen": $0, "at": Self.at]) }
        let kept = try await client.send("PUT", answer, json: ["chosen": [1], "at": Self.at])
        let after = try await asyncMap(refused) { try await client.send("PUT", answer, json: ["chosen": $0, "at": Self.at]) }
        withExtendedLifetime(server) {}

        #expect(before.map(\.status) == Array(repeating: 422, count: refused.count))
        #expect(before.allSatisfy { $0.errorCode == "invalid_request" })
        #expect(kept.status == 200 && kept.json["chosen"] as? [Int] == [1])
        #expect(after.map(\.status) == Array(repeating: 422, count: refused.count), "not the kept answer")
    }

    /// 09:30 UTC on 2026-11-24, 10:30 where the learner is (UTC+01:00): the tests' time.
    static let at = "2026-11-24T09:30:00Z"
    static let time = StudyTime(now: Date(timeIntervalSince1970: 1_795_512_600), secondsFromGMT: 3_600)

    /// A review of the first question of `learningCourse` with `grade`, and `time` (`at` and
    /// `utc_offset`, or anything else).
    static func review(grade: String, question: Int = 0, _ time: [String: Any]) -> [String: Any] {
        time.merging(["course_id": "learn-api", "lesson": 1, "question": question, "grade": grade]) { _, review in review }
    }

    /// The server with `learningCourse`, and a learner of its own enrolled in it (not the demo
    /// learner, whose own cards fall due by the wall clock), with their id. Keep the server
    /// while it is used.
    static func enrolledLearner() async throws -> (HTTPClient, UserID, ServerProcess) {
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(learners: 1, courses: [Self.learningCourse]))
        let (client, session) = try await HTTPClient(baseURL: server.baseURL).signedIn(
            email: "learner1@example.com", password: "password-1")
        let id = try #require((session["user"] as? [String: Any])?["id"] as? Int)
        _ = try await client.send("PUT", "/v1/me/enrollments/learn-api")
        return (client, UserID(Int64(id)), server)
    }

    func asyncMap<T, U>(_ items: [T], _ body: (T) async throws -> U) async throws -> [U] {
        var results: [U] = []
        for item in items { results.append(try await body(item)) }
        return results
    }
}
