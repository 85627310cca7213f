import Synchronization

/// Counts the work whose amount grows with a learner's lists or the catalog — comparisons
/// made sorting courses, items walked building a kept list, texts measured for a table's
/// columns — wherever it is done, for a test
/// that states how much of it a key or a frame may do (none: they do what the screen shows).
/// Scoped to a task and its children (`$current.withValue`), so production reads `nil` and
/// counts nothing, and tests running side by side do not count each other's work.
public final class WorkMeter: Sendable {
    public struct Counts: Hashable, Sendable, CustomStringConvertible {
        /// Comparisons of two courses in catalog order (`TextFolding.inCatalogOrder`).
        public var comparisons = 0
        /// Items walked to build a list kept for drawing (`KeptList`).
        public var kept = 0
        /// Texts measured to size a table's columns (`Table.contentWidths`).
        public var measured = 0

        public init() {}

        public var total: Int { comparisons + kept + measured }
        public var description: String { "\(comparisons) comparisons, \(kept) items kept, \(measured) texts measured" }
    }

    @TaskLocal public static var current: WorkMeter?

    private let state = Mutex(Counts())

    public init() {}

    public var counts: Counts { state.withLock { $0 } }

    public func reset() { state.withLock { $0 = Counts() } }

    /// Adds to the current task's meter, if it has one.
    public static func count(_ change: (inout Counts) -> Void) {
        guard let meter = current else { return }
        meter.state.withLock { change(&$0) }
    }
}
