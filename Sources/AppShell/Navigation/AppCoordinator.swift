import Observation
import SharedKernel

/// Owns navigation: the current tab and the stack of destinations pushed on its root.
@Observable
@MainActor
public final class AppCoordinator {
    public private(set) var tab: AppTab
    /// Destinations above the tab's root; empty at the root.
    public private(set) var path: [AppDestination] = []

    public init(tab: AppTab = .catalog) {
        self.tab = tab
    }

    public var isAtRoot: Bool { path.isEmpty }

    public func push(_ destination: AppDestination) {
        path.append(destination)
    }

    /// Goes back one level; returns false at a tab's root, where there is nothing to pop.
    @discardableResult
    public func pop() -> Bool {
        guard !path.isEmpty else { return false }
        path.removeLast()
        return true
    }

    /// Shows a tab at its root: whatever was pushed is dropped.
    public func switchTab(to tab: AppTab) {
        self.tab = tab
        path.removeAll()
    }
}
