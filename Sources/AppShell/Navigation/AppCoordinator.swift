import Observation
import Presentation
import SharedKernel
import TerminalUI

/// Owns navigation, and the one stack of screens: the current tab, each tab's root screen
/// (kept for the session, so a list keeps its place), and the screens pushed on top, each
/// made from its destination once, when pushed, and told to stop its work when popped.
@Observable
@MainActor
final class AppCoordinator {
    /// A pushed destination and the screen made for it.
    struct Entry {
        let destination: AppDestination
        let screen: any Screen
    }

    private(set) var tab: AppTab
    /// Destinations above the tab's root; empty at the root.
    private(set) var path: [Entry] = []
    @ObservationIgnored private var roots: [AppTab: any Screen] = [:]
    @ObservationIgnored private let makeRoot: @MainActor (AppTab) -> any Screen
    @ObservationIgnored private let makeScreen: @MainActor (AppDestination) -> any Screen

    init(
        tab: AppTab = .catalog,
        makeRoot: @escaping @MainActor (AppTab) -> any Screen,
        makeScreen: @escaping @MainActor (AppDestination) -> any Screen
    ) {
        self.tab = tab
        self.makeRoot = makeRoot
        self.makeScreen = makeScreen
    }

    var isAtRoot: Bool { path.isEmpty }
    var destinations: [AppDestination] { path.map(\.destination) }

    /// The screen in front: the top of the stack, else the tab's root.
    var currentScreen: any Screen {
        path.last?.screen ?? root(for: tab)
    }

    private func root(for tab: AppTab) -> any Screen {
        if let screen = roots[tab] { return screen }
        let screen = makeRoot(tab)
        roots[tab] = screen
        return screen
    }

    func push(_ destination: AppDestination) {
        path.append(Entry(destination: destination, screen: makeScreen(destination)))
    }

    /// Goes back one level; returns false at a tab's root, where there is nothing to pop.
    @discardableResult
    func pop() -> Bool {
        guard let entry = path.popLast() else { return false }
        entry.screen.disappear()
        return true
    }

    /// Shows a tab at its root: whatever was pushed is dropped.
    func switchTab(to tab: AppTab) {
        path.reversed().forEach { $0.screen.disappear() }
        path.removeAll()
        self.tab = tab
    }

    /// Every screen stops its work: the learner is leaving.
    func close() {
        switchTab(to: tab)
        roots.values.forEach { $0.disappear() }
        roots.removeAll()
    }
}
