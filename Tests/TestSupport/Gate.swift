/// Holds async callers until opened, so a test can observe a call while it is in flight. A
/// test can also wait, without polling, until a caller is held.
public actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var arrivalWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// How many callers have reached the gate since it was made.
    public private(set) var arrivals = 0

    public init(open: Bool = false) {
        isOpen = open
    }

    public func wait() async {
        arrivals += 1
        let ready = arrivalWatchers.filter { $0.count <= arrivals }
        arrivalWatchers.removeAll { $0.count <= arrivals }
        ready.forEach { $0.continuation.resume() }
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    public func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters.removeAll()
    }

    public func close() {
        isOpen = false
    }

    /// Lets the callers held now through, and keeps the gate closed for the next ones.
    public func release() {
        waiters.forEach { $0.resume() }
        waiters.removeAll()
    }

    /// Returns once `count` callers in all have reached the gate.
    public func waitForArrivals(_ count: Int) async {
        if arrivals >= count { return }
        await withCheckedContinuation { arrivalWatchers.append((count, $0)) }
    }
}
