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
}
