/// Runs work one at a time per key, in the order asked, each in a task of its own: a save is
/// never cancelled because the screen that asked for it went away, and two saves of the same
/// thing never overtake each other.
@MainActor
public final class KeyedSerialTasks<Key: Hashable & Sendable> {
    private var tails: [Key: Task<Void, Never>] = [:]

    public init() {}

    /// True while anything runs or waits for `key`.
    public func isRunning(_ key: Key) -> Bool { tails[key] != nil }

    /// Runs `operation` after every earlier one for `key` has finished; returns its result.
    public func run<T: Sendable>(_ key: Key, _ operation: @escaping @MainActor () async -> T) async -> T {
        let previous = tails[key]
        let work = Task { @MainActor in
            await previous?.value
            return await operation()
        }
        let tail = Task { @MainActor in _ = await work.value }
        tails[key] = tail
        let result = await work.value
        if tails[key] == tail { tails[key] = nil }
        return result
    }
}
