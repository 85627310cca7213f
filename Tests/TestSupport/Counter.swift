import Synchronization

/// A number several tasks add to and a test reads (bytes a stand-in server wrote, answers it
/// gave), shared by reference.
public final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    public var value: Int { count.load(ordering: .relaxed) }

    public func add(_ amount: Int) {
        count.add(amount, ordering: .relaxed)
    }
}
