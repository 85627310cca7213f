import Synchronization

/// What a test made, held weakly: once the test has let go of it, each must be gone, or
/// something (a closure, a task) keeps it alive (essential-feed's `trackForMemoryLeaks`). A
/// suite tracks what its `makeSUT` makes, and checks `alive` in its `deinit`, which Swift
/// Testing runs after each test.
public final class LeakTracker: Sendable {
    /// A test double's box: only the test's own task touches it, under the mutex.
    private final class Tracked: @unchecked Sendable {
        weak var object: AnyObject?
        let name: String

        init(_ object: AnyObject, name: String) {
            self.object = object
            self.name = name
        }
    }

    private let tracked = Mutex<[Tracked]>([])

    public init() {}

    /// Watches `object`, named by its type and where it was made.
    public func track(_ object: AnyObject, fileID: String = #fileID, line: Int = #line) {
        let entry = Tracked(object, name: "\(type(of: object)) (\(fileID):\(line))")
        tracked.withLock { $0.append(entry) }
    }

    /// What is still alive of what was tracked.
    public var alive: [String] {
        tracked.withLock { list in list.filter { $0.object != nil }.map(\.name) }
    }
}
