import Synchronization

/// Values kept for one revision of the catalog (a number the store moves whenever what a
/// search finds may change), bounded: a read at another revision finds nothing, a newer
/// revision or a full store starts again, and a value read at an older revision than the one
/// kept is dropped (a read that began before a change may finish after one that began later).
/// Shared by the copies of one repository.
public final class RevisionKept<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let capacity: Int
    private let entries = Mutex<(revision: Int64, values: [Key: Value])>((0, [:]))

    public init(capacity: Int) {
        self.capacity = capacity
    }

    /// What is kept for each of `keys` at `revision`, under one lock.
    public func values(for keys: some Sequence<Key>, at revision: Int64) -> [Key: Value] {
        entries.withLock { entries in
            guard entries.revision == revision else { return [:] }
            var found: [Key: Value] = [:]
            for key in keys { found[key] = entries.values[key] }
            return found
        }
    }

    public func keep(_ values: [Key: Value], at revision: Int64) {
        entries.withLock { entries in
            guard revision >= entries.revision else { return }
            if revision > entries.revision || entries.values.count + values.count > capacity { entries = (revision, [:]) }
            entries.values.merge(values) { _, new in new }
        }
    }
}
