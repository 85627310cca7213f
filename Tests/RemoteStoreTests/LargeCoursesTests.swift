import Foundation
import Platform
import RemoteStore
import SharedKernel
import TestSupport
import Testing

/// Issue 39, item 6: a course is at most 64 KiB of JSON, and no answer passes the terminal's
/// 4 MiB cap. A catalog of the largest courses pages through whole; a course stored before
/// the limits that is past them is left out, and the rest loads.
@Suite("Remote: the largest courses and the terminal's cap")
struct LargeCoursesTests {
    @Test("100 courses of the largest size come through, in order, in pages the server keeps under the cap")
    func largestCourses() async throws {
        let (server, store, client) = try await makeSUT()
        defer {
            client.remove()
            server.directory.remove()
        }
        let courses = (100..<200).map { number in
            Self.largest(.fixture(id: CourseID("large-\(number)"), title: "Large \(number)", description: ""))
        }
        #expect(courses.allSatisfy { CourseLimits.problem(in: Syllabus(course: $0, lessons: [.only(of: $0)])) == nil })
        try server.addCourses(courses.map { ($0, nil) })

        let page = try await store.page(matching: "", at: .first, limit: 100)
        let back = try await store.page(matching: "", at: .last, limit: 100)

        #expect(page.map(\.course.id) == courses.map(\.id))
        #expect(back.map(\.course.id) == courses.map(\.id))
        await server.stop()
    }

    @Test("a course stored before the limits that is past them is left out of pages, the rest loads; its own page is an error")
    func storedBeforeTheLimits() async throws {
        let (server, store, client) = try await makeSUT()
        defer {
            client.remove()
            server.directory.remove()
        }
        // Written past the import's checks, as an older version could have.
        try server.addCourses([
            (.fixture(id: "a-fine", title: "A Fine Course"), nil),
            (.fixture(id: "b-tagged", title: "B Tagged", tags: (0..<25).map { "tag\($0)" }), nil),
            (.fixture(id: "c-huge", title: "C Huge", description: String(repeating: "h", count: 5_000_000)), nil),
            (.fixture(id: "d-fine", title: "D Fine Course"), nil),
        ])

        let page = try await store.page(matching: "", at: .first, limit: 20)

        #expect(page.map(\.course.id) == ["a-fine", "d-fine"])
        await #expect(throws: AppError.connectivity) { try await store.syllabus(of: "c-huge") }
        await #expect(throws: AppError.connectivity) { try await store.syllabus(of: "b-tagged") }
        await server.stop()
    }

    // MARK: - Helpers

    /// `course` with a description that makes it exactly as large as a course may be, with
    /// the one lesson a course without its own has.
    static func largest(_ course: Course) -> Course {
        var largest = course
        let room = CourseLimits.jsonBytes - CourseLimits.jsonBytes(of: Syllabus(course: course, lessons: [.only(of: course)]))
        largest.description = String(repeating: "d", count: room)
        return largest
    }

    private func makeSUT() async throws -> (InProcessServer, RemoteStore, TemporaryDirectory) {
        let server = try await InProcessServer.start()
        let client = TemporaryDirectory(prefix: "edugo-remote-large")
        let store = RemoteStore(server: server.url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
        return (server, store, client)
    }
}
