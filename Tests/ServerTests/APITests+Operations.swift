import Foundation
import ServerTestSupport
import SharedKernel
import Testing

/// `POST /v1/me/operations` over the real `edugo-server`: each operation answered on its own,
/// bad ones refused one by one while the rest are applied.
extension APITests {
    static func queued(_ id: String, _ kind: String, ago seconds: Double = 60, _ fields: [String: Any] = [:]) -> [String: Any] {
        let time = HybridTime(Date().addingTimeInterval(-seconds), node: "api-test")
        return fields.merging(["id": id, "time": time.description, "kind": kind]) { _, new in new }
    }

    @Test("a batch: each operation applied once, a repeat answered the same, an older write superseded, a full course refused")
    func operationBatch() async throws {
        let (client, _, server) = try await Self.enrolledLearner()
        let batch: [[String: Any]] = [
            Self.queued("op-fav-000001", "favourite", ago: 30, ["course_id": "learn-api", "favourite": true]),
            Self.queued("op-fav-000002", "favourite", ago: 90, ["course_id": "learn-api", "favourite": false]),
            Self.queued("op-lesson-0001", "lesson", ["course_id": "learn-api", "lesson": 1, "done": true]),
            Self.queued("op-name-00001", "name", ["name": "Offline Olga"]),
            Self.queued("op-enroll-001", "enroll", ["course_id": "no-such-course"]),
        ]
        let first = try await client.send("POST", "/v1/me/operations", json: ["operations": batch])
        let again = try await client.send("POST", "/v1/me/operations", json: ["operations": batch])
        let favourites = try await client.get("/v1/me/favourites")
        let me = try await client.get("/v1/me")
        withExtendedLifetime(server) {}

        let statuses = { (answer: HTTPAnswer) in ((answer.json["results"] as? [[String: Any]]) ?? []).map { $0["status"] as? String } }
        let expected: [String?] = ["applied", "superseded", "applied", "applied", "refused"]
        #expect(first.status == 200 && statuses(first) == expected)
        #expect(again.status == 200 && statuses(again) == expected, "a repeat answers the first results")
        let refused = (first.json["results"] as? [[String: Any]])?.last
        #expect(refused?["error"] as? String == "course_not_found" && refused?["id"] as? String == "op-enroll-001")
        #expect(refused?["detail"] == nil, "no detail where the code says it all")
        #expect(((favourites.json["courses"] as? [Any]) ?? []).count == 1, "the later set stands, once")
        #expect(me.json["name"] as? String == "Offline Olga")
    }

    @Test("bad operations are answered one by one (unknown kind, missing field, bad id, time or settings, reused id), the rest applied")
    func badOperations() async throws {
        let (client, _, server) = try await Self.enrolledLearner()
        _ = try await client.send(
            "POST", "/v1/me/operations", json: ["operations": [Self.queued("op-reused-0001", "name", ["name": "First Name"])]])
        let far = HybridTime(milliseconds: 9_999_999_999_000, node: "skewed")!.description
        let batch: [[String: Any]] = [
            Self.queued("op-unknown-001", "teleport", ["course_id": "learn-api"]),
            Self.queued("op-missing-001", "lesson", ["course_id": "learn-api", "lesson": 1]),
            Self.queued("bad id!", "name", ["name": "Nope"]),
            ["id": "op-badtime-001", "time": "yesterday", "kind": "name", "name": "Nope"],
            Self.queued("op-reused-0001", "name", ["name": "Second Name"]),
            Self.queued("op-future-001", "favourite", ["course_id": "learn-api", "favourite": true]).merging(["time": far]) { _, new in new
            },
            Self.queued("op-grade-0001", "review", ["course_id": "learn-api", "lesson": 1, "question": 0, "grade": "meh"]),
            Self.queued(
                "op-settings-01", "review",
                ["course_id": "learn-api", "lesson": 1, "question": 0, "grade": "good", "settings": ["retention": 0.5]]),
            Self.queued("op-fine-00001", "lesson", ["course_id": "learn-api", "lesson": 1, "done": true]),
        ]
        let answer = try await client.send("POST", "/v1/me/operations", json: ["operations": batch], headers: ["Accept-Language": "es"])
        let tooMany = try await client.send(
            "POST", "/v1/me/operations",
            json: ["operations": (0...200).map { Self.queued(String(format: "op-many-%05d", $0), "name", ["name": "Many"]) }])
        let notABatch = try await client.send("POST", "/v1/me/operations", json: ["operations": "all of them"])
        let me = try await client.get("/v1/me")
        let enrollment = try await client.get("/v1/me/enrollments/learn-api")
        withExtendedLifetime(server) {}

        let results = (answer.json["results"] as? [[String: Any]]) ?? []
        #expect(answer.status == 200 && results.count == batch.count)
        #expect(
            results.map { $0["status"] as? String }
                == ["invalid", "invalid", "invalid", "invalid", "conflicting", "applied", "invalid", "invalid", "applied"])
        #expect(results.first?["message"] as? String == "teleport no es un tipo de operación que este servidor conozca.")
        #expect(results[1]["message"] as? String == "Una operación de tipo lesson necesita done.")
        #expect(results[7]["error"] as? String == "invalid_request", "review settings out of range")
        #expect(tooMany.status == 400 && tooMany.errorCode == "invalid_request")
        #expect(notABatch.status == 422 && notABatch.errorCode == "invalid_request", "JSON of the wrong shape")
        #expect(me.json["name"] as? String == "First Name", "the reused id's second operation was not applied")
        #expect((enrollment.json["lessons_done"] as? [Int]) == [1])
    }

    @Test("without a session the route is 401, and nothing is applied")
    func operationsNeedSession() async throws {
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(learners: 1, courses: [Self.learningCourse]))
        let answer = try await HTTPClient(baseURL: server.baseURL).send(
            "POST", "/v1/me/operations", json: ["operations": [Self.queued("op-anon-00001", "name", ["name": "Anon"])]])
        withExtendedLifetime(server) {}
        #expect(answer.status == 401 && answer.errorCode == "unauthorized")
    }
}
