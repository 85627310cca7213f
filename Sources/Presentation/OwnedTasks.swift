/// The tasks a screen or model started: they belong to it, are cancelled with it, and can be
/// awaited, so a test (or the shell) waits for the work instead of polling for its effect.
@MainActor
public final class OwnedTasks {
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextID = 0

    public init() {}

    /// True while any task runs.
    public var isBusy: Bool { !running.isEmpty }

    /// Starts `operation`; it is cancelled by `cancelAll()`.
    @discardableResult
    public func run(_ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        nextID += 1
        let id = nextID
        let task = Task { @MainActor [weak self] in
            await operation()
            self?.running[id] = nil
        }
        running[id] = task
        return task
    }

    /// Cancels everything still running.
    public func cancelAll() {
        running.values.forEach { $0.cancel() }
        running.removeAll()
    }

    /// Waits until nothing runs, tasks started meanwhile included.
    public func settle() async {
        while let (id, task) = running.first {
            await task.value
            running[id] = nil
        }
    }
}
