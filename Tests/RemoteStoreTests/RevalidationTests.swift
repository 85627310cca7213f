import Foundation
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import RemoteStore

/// Issue 44: the terminal asks a catalog page or a course it has again with its `ETag`, and a
/// lesson after news of an import; the server's 304 is answered with the one kept, a changed
/// one comes whole.
@Suite("Remote store: catalog pages, courses and lessons revalidated")
struct RevalidationTests {
    /// Requests to `route` the server answered with `status`, from its `/metrics`.
    static func answers(_ server: InProcessServer, route: String = "/v1/courses", status: Int) async throws -> Int {
        let scrape = try PrometheusText(try await HTTPClient(baseURL: server.url).get("/metrics"))
        return Int(scrape.value("edugo_http_requests_total", ["route": route, "method": "GET", "status": "\(status)"]))
    }

    static func catalogAnswers(_ server: InProcessServer, status: Int) async throws -> Int {
        try await answers(server, status: status)
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

    @Test("a course opened again is revalidated: 304, the course kept; a seat taken brings it whole")
    func courseRevalidated() async throws {
        let server = try await InProcessServer.start()
        let client = TemporaryDirectory(prefix: "edugo-remote-courses")
        defer {
            client.remove()
            server.directory.remove()
        }
        try server.addCourses([(.fixture(id: "kc-1", title: "Kept Course", capacity: 10, enrolledCount: 3, lessonCount: 1), nil)])
        let store = RemoteStore(server: server.url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
        let learner = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        let route = "/v1/courses/{course_id}"

        let first = try await store.syllabus(of: "kc-1")
        #expect(try await store.syllabus(of: "kc-1") == first)
        #expect(try await Self.answers(server, route: route, status: 200) == 1)
        #expect(try await Self.answers(server, route: route, status: 304) == 1, "opened again: 304, with no body")

        _ = try await store.enroll(userID: learner.id, courseID: "kc-1")
        let changed = try await store.syllabus(of: "kc-1")
        #expect(changed.course.enrolledCount == first.course.enrolledCount + 1)
        #expect(try await Self.answers(server, route: route, status: 200) == 2, "the changed course came whole")
        await server.stop()
    }

    @Test("a lesson read again is not asked; after news of an import it is asked with its tag: 304 keeps it, a new text comes whole")
    func lessonRevalidated() async throws {
        let server = try await InProcessServer.start()
        let client = TemporaryDirectory(prefix: "edugo-remote-lessons")
        defer {
            client.remove()
            server.directory.remove()
        }
        let course = Course.fixture(id: "kl-1", title: "Kept Lessons", lessonCount: 1)
        let lesson = { (body: String) in [Lesson(title: "One", minutes: 5, content: LessonContent(body: body))] }
        try server.addCourses([(course, lesson("The first text."))])
        let store = RemoteStore(server: server.url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
        let route = "/v1/courses/{course_id}/lessons/{lesson}"

        #expect(try await store.lessonContent(courseID: "kl-1", lesson: 1).body == "The first text.")
        _ = try await store.lessonContent(courseID: "kl-1", lesson: 1)
        #expect(try await Self.answers(server, route: route, status: 200) == 1, "read again within the session: not asked")

        store.lessons.markStale()
        #expect(try await store.lessonContent(courseID: "kl-1", lesson: 1).body == "The first text.")
        #expect(try await Self.answers(server, route: route, status: 304) == 1, "stale: asked with its tag, still the lesson")
        _ = try await store.lessonContent(courseID: "kl-1", lesson: 1)
        #expect(try await Self.answers(server, route: route, status: 304) == 1, "confirmed: not asked again")

        try await server.addCoursesRead([(course, lesson("A new text."))])
        store.lessons.markStale()
        #expect(try await store.lessonContent(courseID: "kl-1", lesson: 1).body == "A new text.")
        #expect(try await Self.answers(server, route: route, status: 200) == 2, "the new text came whole")
        await server.stop()
    }
}
