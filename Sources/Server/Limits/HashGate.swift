import SharedKernel

/// Password hashes cost a few hundred milliseconds of CPU each. At most `slots` run at once;
/// the rest wait their turn address by address (round robin), so a flood from one address
/// cannot make a learner elsewhere wait behind all of it. A request that would wait longer
/// than `maximumWait` is told the server is busy (503 with `Retry-After`) instead.
actor HashGate {
    let slots: Int
    let maximumWait: Duration
    private let clock: any Clock<Duration>
    private var running = 0
    /// Waiters by address, and the addresses in turn order.
    private var queues: [String: [Int]] = [:]
    private var turns: [String] = []
    private var waiters: [Int: Waiter] = [:]
    private var nextID = 0

    private enum Waiter {
        /// Entering, not yet queued.
        case pending
        /// Queued, resumed with true when admitted, false when its wait is over.
        case waiting(address: String, CheckedContinuation<Bool, Never>)
        /// Given a slot; it is the waiter's until it leaves.
        case admitted
        /// Its wait ended before it was admitted.
        case expired
    }

    init(slots: Int, maximumWait: Duration, clock: any Clock<Duration> = ContinuousClock()) {
        self.slots = max(1, slots)
        self.maximumWait = maximumWait
        self.clock = clock
    }

    /// Runs `body` in a slot, once one is this request's; `APIFailure.busy` when none came in time.
    func run<T: Sendable>(from address: String, _ body: @Sendable () async throws -> T) async throws -> T {
        guard await enter(address) else { throw APIFailure.busy }
        defer { leave() }
        return try await body()
    }

    /// Returns once `count` requests wait for a slot (tests hold the gate full and queue
    /// requests in an order they choose).
    func waitUntilQueued(_ count: Int) async {
        guard waitingCount < count else { return }
        await withCheckedContinuation { queuedWatchers.append((count, $0)) }
    }

    private var waitingCount: Int { queues.values.reduce(0) { $0 + $1.count } }

    /// Hashes running and waiting for a slot (metrics).
    var load: (running: Int, queued: Int) { (running, waitingCount) }
    private var queuedWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    private func enter(_ address: String) async -> Bool {
        if running < slots, turns.isEmpty {
            running += 1
            return true
        }
        let id = nextID
        nextID += 1
        waiters[id] = .pending
        // The wait and its deadline race in one group this call owns. When the deadline's
        // sleep ends — its time come, or cancelled because the request was, or because a slot
        // came first — the waiter expires, which takes a waiter still queued out of the queue
        // and does nothing to one admitted. Whether it got a slot is the gate's record, never
        // who won the race: one given just as the wait ended is taken.
        let (clock, maximumWait) = (self.clock, self.maximumWait)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = await self.wait(id, address) }
            group.addTask {
                try? await clock.sleep(for: maximumWait)
                await self.expire(id)
            }
            await group.next()
            group.cancelAll()
        }
        return settle(id)
    }

    /// Whether the waiter `id` got a slot, once its wait is over; it is forgotten.
    private func settle(_ id: Int) -> Bool {
        defer { waiters[id] = nil }
        if case .admitted? = waiters[id] { return true }
        return false
    }

    private func wait(_ id: Int, _ address: String) async -> Bool {
        if case .expired? = waiters[id] { return false }
        return await withCheckedContinuation { continuation in
            waiters[id] = .waiting(address: address, continuation)
            if queues[address, default: []].isEmpty { turns.append(address) }
            queues[address, default: []].append(id)
            let queued = waitingCount
            queuedWatchers.removeAll { watcher in
                guard watcher.count <= queued else { return false }
                watcher.continuation.resume()
                return true
            }
        }
    }

    private func expire(_ id: Int) {
        switch waiters[id] {
        case .pending?:
            waiters[id] = .expired
        case .waiting(let address, let continuation)?:
            waiters[id] = .expired
            queues[address]?.removeAll { $0 == id }
            if queues[address]?.isEmpty == true {
                queues[address] = nil
                turns.removeAll { $0 == address }
            }
            continuation.resume(returning: false)
        case .admitted?, .expired?, nil:
            break
        }
    }

    /// Frees a slot for the first waiter of the address whose turn it is.
    private func leave() {
        running -= 1
        while let address = turns.first {
            turns.removeFirst()
            var queue = queues[address] ?? []
            guard !queue.isEmpty else { continue }
            let id = queue.removeFirst()
            queues[address] = queue.isEmpty ? nil : queue
            if !queue.isEmpty { turns.append(address) }
            guard case .waiting(_, let continuation)? = waiters[id] else { continue }
            waiters[id] = .admitted
            running += 1
            continuation.resume(returning: true)
            return
        }
    }
}
