@testable import AppShell
import SharedKernel
import Testing

@Suite("App coordinator")
@MainActor
struct AppCoordinatorTests {
    @Test("the path starts empty on the catalog tab")
    func startsEmpty() {
        let sut = AppCoordinator()

        #expect(sut.path == [])
        #expect(sut.tab == .catalog)
        #expect(sut.isAtRoot)
    }

    @Test("selecting a course pushes its detail")
    func pushDetail() {
        let sut = AppCoordinator()

        sut.push(.courseDetail("swift-101"))

        #expect(sut.path == [.courseDetail("swift-101")])
        #expect(!sut.isAtRoot)
    }

    @Test("back pops one level, and does nothing at the root")
    func pop() {
        let sut = AppCoordinator()
        sut.push(.courseDetail("a"))
        sut.push(.courseDetail("b"))

        #expect(sut.pop())
        #expect(sut.path == [.courseDetail("a")])
        #expect(sut.pop())
        #expect(!sut.pop())
        #expect(sut.path == [])
    }

    @Test("a tab switch resets to that tab's root")
    func tabSwitchResets() {
        let sut = AppCoordinator()
        sut.push(.courseDetail("a"))

        sut.switchTab(to: .favourites)

        #expect(sut.tab == .favourites)
        #expect(sut.path == [])
    }

    @Test("tabs cycle forwards and backwards", arguments: [
        (AppTab.catalog, AppTab.myCourses, AppTab.profile),
        (AppTab.profile, AppTab.catalog, AppTab.favourites),
    ])
    func cycle(tab: AppTab, next: AppTab, previous: AppTab) {
        #expect(tab.next == next)
        #expect(tab.previous == previous)
    }
}
