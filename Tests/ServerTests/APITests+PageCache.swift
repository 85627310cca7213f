import Foundation
import ServerTestSupport
import SharedKernel
import Testing

/// Issue 44: the public catalog pages answered from the server's memory, with validators.
extension APITests {
    @Test(
        "catalog pages carry an ETag; If-None-Match is 304 with no body; a public page is answered again from memory until a seat on it moves"
    )
    func pageValidators() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        // The hub has read where the change log stands once a stream is ready: pages are kept.
        let stream = try await EventStreamConnection(to: server.baseURL, token: try #require(client.token))
        #expect(try await stream.nextEvent()?.name == "ready")
        let before = try PrometheusText(try await client.get("/metrics"))

        let first = try await client.get("/v1/courses?limit=5")
        let etag = try #require(first.headers["etag"])
        let again = try await client.get("/v1/courses?sort=title&limit=5")
        let unchanged = try await client.send("GET", "/v1/courses?limit=5", headers: ["If-None-Match": etag])
        let listed = try await client.send("GET", "/v1/courses?limit=5", headers: ["If-None-Match": "W/\"p0\", W/\(etag)"])
        let other = try await client.send("GET", "/v1/courses?limit=5", headers: ["If-None-Match": "\"p0\""])
        let own = try await client.get("/v1/courses?query=is:favourite")
        let ownAgain = try await client.send("GET", "/v1/courses?query=is:favourite", headers: ["If-None-Match": own.headers["etag"] ?? ""])
        let forged = try await HTTPClient(baseURL: server.baseURL, token: "not-a-token").get("/v1/courses?limit=5")
        let kept = try PrometheusText(try await client.get("/metrics"))

        #expect(first.status == 200 && first.headers["cache-control"] == "no-cache")
        #expect(again.status == 200 && again.body == first.body && again.headers["etag"] == etag, "the same page, however asked")
        #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.headers["etag"] == etag)
        #expect(listed.status == 304, "a list of tags, weak ones compared by their tag")
        #expect(other.status == 200 && other.body == first.body)
        #expect(own.status == 200 && own.headers["cache-control"] == "private, no-cache")
        #expect(ownAgain.status == 304, "the learner's own page is validated too, never kept")
        #expect(forged.status == 401, "a bad token is refused, kept page or not")
        let moved = { (name: String) in kept.value(name) - before.value(name) }
        #expect(moved("edugo_page_cache_misses_total") == 1, "only the first read went to the database")
        #expect(moved("edugo_page_cache_hits_total") == 4)
        #expect(kept.value("edugo_page_cache_pages") == 1 && kept.value("edugo_page_cache_bytes") > Double(first.body.count))

        // A seat taken on the page: its learner reads it again at once and sees it.
        let courses = first.json["courses"] as? [[String: Any]] ?? []
        let open = try await client.get("/v1/courses?limit=100&query=is:open").json["courses"] as? [[String: Any]] ?? []
        let openIDs = Set(open.compactMap { $0["id"] as? String })
        let target = try #require(courses.first { openIDs.contains($0["id"] as? String ?? "") })
        let id = try #require(target["id"] as? String)
        let seats = try #require(target["enrolled_count"] as? Int)
        #expect(try await client.send("PUT", "/v1/me/enrollments/\(id)").status == 201)
        let after = try await client.send("GET", "/v1/courses?limit=5", headers: ["If-None-Match": etag])
        let row = (after.json["courses"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id }
        #expect(after.status == 200 && row?["enrolled_count"] as? Int == seats + 1)
        #expect(after.headers["etag"] != etag)
        let dropped = try PrometheusText(try await client.get("/metrics"))
        #expect(dropped.value("edugo_page_cache_dropped_total") - before.value("edugo_page_cache_dropped_total") >= 1)
        withExtendedLifetime((server, stream)) {}
    }

    @Test(
        "a course and a lesson carry an ETag, the same from every server; If-None-Match is 304; both are kept until a seat on the course moves"
    )
    func coursePageValidators() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        // Another process of its own: its own hash seed, which once ordered a course's fields.
        let other = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let stream = try await EventStreamConnection(to: server.baseURL, token: try #require(client.token))
        #expect(try await stream.nextEvent()?.name == "ready")
        let open = try await client.get("/v1/courses?limit=100&query=is:open").json["courses"] as? [[String: Any]] ?? []
        let id = try #require(open.first { $0["prerequisite_id"] == nil }?["id"] as? String)
        let before = try PrometheusText(try await client.get("/metrics"))

        let course = try await client.get("/v1/courses/\(id)")
        let etag = try #require(course.headers["etag"])
        let lesson = try await client.get("/v1/courses/\(id)/lessons/1")
        let lessonTag = try #require(lesson.headers["etag"])
        let courseAgain = try await client.send("GET", "/v1/courses/\(id)", headers: ["If-None-Match": etag])
        let lessonAgain = try await client.send("GET", "/v1/courses/\(id)/lessons/1", headers: ["If-None-Match": lessonTag])
        let stale = try await client.send("GET", "/v1/courses/\(id)", headers: ["If-None-Match": lessonTag])
        let elsewhere = try await HTTPClient(baseURL: other.baseURL).get("/v1/courses/\(id)")
        let missing = try await client.get("/v1/courses/no-such-course")
        let kept = try PrometheusText(try await client.get("/metrics"))

        #expect(course.status == 200 && course.headers["cache-control"] == "no-cache")
        #expect(lesson.status == 200 && lesson.headers["cache-control"] == "no-cache" && lessonTag != etag)
        #expect(courseAgain.status == 304 && courseAgain.body.isEmpty && courseAgain.headers["etag"] == etag)
        #expect(lessonAgain.status == 304 && lessonAgain.body.isEmpty)
        #expect(stale.status == 200 && stale.body == course.body)
        #expect(elsewhere.status == 200 && elsewhere.body == course.body && elsewhere.headers["etag"] == etag)
        #expect(missing.status == 404 && missing.headers["etag"] == nil, "a refusal is neither kept nor tagged")
        let moved = { (name: String) in kept.value(name) - before.value(name) }
        #expect(moved("edugo_page_cache_misses_total") == 3, "the course, the lesson, and the course that is not")
        #expect(moved("edugo_page_cache_hits_total") == 3)

        // A seat taken in the course: its learner reads it again at once and sees it.
        let seats = try #require(course.json["enrolled_count"] as? Int)
        #expect(try await client.send("PUT", "/v1/me/enrollments/\(id)").status == 201)
        let after = try await client.send("GET", "/v1/courses/\(id)", headers: ["If-None-Match": etag])
        #expect(after.status == 200 && after.json["enrolled_count"] as? Int == seats + 1 && after.headers["etag"] != etag)
        withExtendedLifetime((server, other, stream)) {}
    }
}
