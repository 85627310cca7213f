@testable import AppShell
import SharedKernel
import Testing
import TestSupport

@Suite("Development options as repository decorators")
struct DevelopmentConditionsTests {
    @Test("--offline fails every call as a connectivity error without touching the store")
    func offline() async {
        let base = CourseRepositorySpy.success([.fixture()])
        let sut = ConditionedCourseRepository(base: base, conditions: DevelopmentConditions(offline: true))

        await #expect(throws: AppError.connectivity) { try await sut.page(matching: "", at: .first, limit: 10) }
        await #expect(throws: AppError.connectivity) { try await sut.count(matching: "") }
        await #expect(throws: AppError.connectivity) { try await sut.course(id: "swift-101") }
        #expect(await base.messages == [])
    }

    @Test("--latency waits, then answers from the store")
    func latency() async throws {
        let base = CourseRepositorySpy.success([.fixture()])
        let sut = ConditionedCourseRepository(base: base, conditions: DevelopmentConditions(latency: .milliseconds(50)))
        let clock = ContinuousClock()

        let start = clock.now
        let rows = try await sut.page(matching: "", at: .first, limit: 10)

        #expect(clock.now - start >= .milliseconds(50))
        #expect(rows.map(\.course) == [.fixture()])
        #expect(await base.messages == [.page("", .first, 10)])
    }

    @Test("no options means no decoration")
    func inactive() {
        #expect(!DevelopmentConditions().isActive)
        #expect(DevelopmentConditions(offline: true).isActive)
        #expect(DevelopmentConditions(latency: .milliseconds(1)).isActive)
    }
}
