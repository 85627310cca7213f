import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import AppShell

/// A screen that records what the coordinator tells it.
@MainActor
final class ScreenProbe: Screen {
    let name: String
    private(set) var disappeared = 0

    init(_ name: String) {
        self.name = name
    }

    var keys: [KeyDeclaration] { [] }
    func draw(in canvas: inout some Canvas, frame: Frame) {}
    func handle(_ event: InputEvent) async -> EventResult { .ignored }
    func disappear() { disappeared += 1 }
}

@Suite("App coordinator: the one stack of screens")
@MainActor
final class AppCoordinatorTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    @Test("the path starts empty on the catalog tab, its root made once")
    func startsEmpty() {
        let (sut, made) = makeSUT()

        #expect(sut.destinations == [])
        #expect(sut.tab == .catalog)
        #expect(sut.isAtRoot)
        #expect((sut.currentScreen as? ScreenProbe)?.name == "root catalog")
        _ = sut.currentScreen
        #expect(made.names == ["root catalog"])
    }

    @Test("pushing makes the destination's screen once; back pops it and stops its work")
    func pushAndPop() throws {
        let (sut, made) = makeSUT()

        sut.push(.courseDetail("a"))
        sut.push(.courseDetail("b"))
        let top = try #require(sut.currentScreen as? ScreenProbe)
        _ = sut.currentScreen

        #expect(sut.destinations == [.courseDetail("a"), .courseDetail("b")])
        #expect(made.names == ["course a", "course b"])
        #expect(sut.pop())
        #expect(top.disappeared == 1)
        #expect(sut.destinations == [.courseDetail("a")])
        #expect(sut.pop())
        #expect(!sut.pop())
    }

    @Test("switching tabs drops what was pushed, stopping it; tab roots live on")
    func switchTab() throws {
        let (sut, made) = makeSUT()
        let catalog = sut.currentScreen
        sut.push(.courseDetail("a"))
        let detail = try #require(sut.currentScreen as? ScreenProbe)

        sut.switchTab(to: .profile)
        sut.switchTab(to: .catalog)

        #expect(detail.disappeared == 1)
        #expect(sut.destinations == [])
        #expect(sut.currentScreen === catalog)
        #expect(made.names == ["root catalog", "course a"])
    }

    @Test("the next and previous tabs wrap around")
    func tabOrder() {
        #expect(AppTab.catalog.next == .myCourses)
        #expect(AppTab.profile.next == .review)
        #expect(AppTab.review.next == .catalog)
        #expect(AppTab.catalog.previous == .review)
    }

    // MARK: - Helpers

    @MainActor
    final class Made {
        var names: [String] = []
    }

    private func makeSUT() -> (AppCoordinator, Made) {
        let made = Made()
        let sut = AppCoordinator(
            makeRoot: { tab in
                made.names.append("root \(tab)")
                return ScreenProbe("root \(tab)")
            },
            makeScreen: { destination in
                guard case .courseDetail(let id) = destination else { return ScreenProbe("?") }
                made.names.append("course \(id)")
                return ScreenProbe("course \(id)")
            }
        )
        leaks.track(sut)
        return (sut, made)
    }
}
