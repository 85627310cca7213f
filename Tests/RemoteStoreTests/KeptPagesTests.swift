import Foundation
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import RemoteStore

/// Issue 44: the terminal asks a catalog page it has again with its `ETag`; the server's 304
/// is answered with the page kept, a changed page comes whole.
@Suite("Remote store: catalog pages revalidated")
struct KeptPagesTests {
    /// Requests to the catalog route the server answered with `status`, from its `/metrics`.
    static func catalogAnswers(_ server: InProcessServer, status: Int) async throws -> Int {
        let scrape = try PrometheusText(try await HTTPClient(baseURL: server.url).get("/metrics"))
        return Int(scrape.value("edugo_http_requests_total", ["route": "/v1/courses", "method": "GET", "status": "\(status)"]))
    }

    @Test("a page asked again is revalidated: the 304 is answered with the page kept; a seat taken brings the page whole")
    func revalidated() async throws {
        let server = try await InProcessServer.start()
        let client = TemporaryDirectory(prefix: "edugo-remote-pages")
        defer {
            client.remove()
            server.directory.remove()
        }
        try server.addCourses([
            (.fixture(id: "kp-1", title: "Kept Pages", capacity: 10, enrolledCount: 3), nil),
            (.fixture(id: "kp-2", title: "Kept Too"), nil),
        ])
        let store = RemoteStore(server: server.url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
        let learner = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        let everything = CatalogQuery(text: "")

        let first = try await store.page(everything, for: learner.id, at: .first, limit: 20)
        let again = try await store.page(everything, for: learner.id, at: .first, limit: 20)
        #expect(again == first && first.count == 2)
        let (whole, validated) = (try await Self.catalogAnswers(server, status: 200), try await Self.catalogAnswers(server, status: 304))
        #expect(whole == 1 && validated == 1, "asked again: 304, with no body")

        _ = try await store.enroll(userID: learner.id, courseID: "kp-1")
        let changed = try await store.page(everything, for: learner.id, at: .first, limit: 20)
        let seats = { (page: [CatalogRow]) in page.first { $0.course.id == "kp-1" }?.course.enrolledCount }
        #expect(seats(changed) == seats(first).map { $0 + 1 })
        #expect(try await Self.catalogAnswers(server, status: 200) == 2, "the changed page came whole")
        #expect(store.pages.count == 1, "one page asked, one kept")
        await server.stop()
    }
}
