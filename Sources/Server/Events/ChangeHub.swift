import Logging
import SharedKernel
import Synchronization

/// One server process's fan-out of its database's change log to its event streams. One reader
/// reads the log after the last id it has, once at start and again when woken (a read of
/// PostgreSQL's log every 100 ms that finds another server's change, SQLite's file events, or a
/// write this process just answered), and hands each change to the mailbox of every stream that
/// should hear of it (public ones to all). On SQLite nothing polls: an idle database costs a
/// keep-alive tick, which also retries a read that failed.
final class ChangeHub: Sendable {
    /// Changes read from the log at a time.
    static let batch = 500

    private let log: any ChangeLog
    private let clock: any Clock<Duration>
    private let logger: Logger
    /// How often a waiting stream writes a keep-alive.
    let keepAliveInterval: Duration
    /// Ticks in a row a stream may spend writing before its client counts as not reading.
    let stallTicks: Int
    /// Streams one learner may hold, and all may (`ServerLimits`).
    let streamsPerLearner: Int
    let maximumStreams: Int

    private struct State {
        /// The id through which every change was handed out; nil until the first read.
        var last: Int64?
        var mailboxes: [Int: EventMailbox] = [:]
        /// Streams per learner, as `mailboxes` holds them.
        var perLearner: [UserID: Int] = [:]
        var nextID = 0
        var closed = false
        var readFailed = false
    }

    /// What the hub reads, told to whoever keeps what a change may alter (`PageCache`) before
    /// any stream hears of it.
    enum News: Sendable {
        /// Where the log stands: every change from here on will be told.
        case ready
        case changes([Change])
        /// Changes were forgotten before the hub read them: anything may have changed.
        case gap
    }

    private let hear: @Sendable (News) -> Void
    private let state = Mutex(State())
    private let pokes: AsyncStream<Void>
    private let poker: AsyncStream<Void>.Continuation

    /// A stream whose client takes nothing for `stallLimit` is closed (within a tick more).
    init(
        log: any ChangeLog, keepAliveInterval: Duration, stallLimit: Duration, streamsPerLearner: Int = .max, maximumStreams: Int = .max,
        clock: any Clock<Duration>, logger: Logger, hear: @escaping @Sendable (News) -> Void = { _ in }
    ) {
        self.log = log
        self.hear = hear
        self.streamsPerLearner = streamsPerLearner
        self.maximumStreams = maximumStreams
        self.clock = clock
        self.logger = logger
        self.keepAliveInterval = keepAliveInterval
        stallTicks = Int((stallLimit / keepAliveInterval).rounded(.up)) + 1
        (pokes, poker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Reads the log at once, then after every wake-up of `wakeups` and every `poke`, and
    /// ticks the keep-alives, until the task is cancelled. Runs once per hub.
    func run(wakeups: AsyncStream<Void>) async {
        poke()
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await _ in wakeups { self.poke() }
                if !Task.isCancelled {
                    self.logger.warning("the database's wake-ups ended: other processes' changes reach the streams with this one's writes")
                }
            }
            group.addTask {
                while (try? await self.clock.sleep(for: self.keepAliveInterval)) != nil { self.tick() }
            }
            for await _ in pokes { await catchUp() }
            group.cancelAll()
        }
    }

    /// Asks for a read of the log soon (several asks before it starts make one read).
    func poke() {
        poker.yield()
    }

    /// Ends every stream and takes no more (the server is shutting down): clients resume
    /// elsewhere, or here after the restart, from their last event.
    func close() {
        let mailboxes = state.withLock { state in
            state.closed = true
            defer {
                state.mailboxes = [:]
                state.perLearner = [:]
            }
            return Array(state.mailboxes.values)
        }
        mailboxes.forEach { $0.finish() }
        poker.finish()
    }

    /// Streams open now.
    var streamCount: Int { state.withLock { $0.mailboxes.count } }

    /// The id through which every change was read and handed out; nil until the first read.
    var readThrough: Int64? { state.withLock { $0.last } }

    /// How a stream asked to be subscribed fared.
    enum Subscribing {
        case subscribed(Subscription)
        /// The hub has not read where the log stands yet, or is closed.
        case notReady
        /// The stream's learner holds `streamsPerLearner` already.
        case learnerHasEnough
        /// `maximumStreams` are open.
        case full

        var subscription: Subscription? {
            if case .subscribed(let subscription) = self { subscription } else { nil }
        }
    }

    /// A new stream's mailbox, which gets every change after `start`, unless the hub has not
    /// read where the log stands yet, is closed, or the stream would pass a limit.
    func subscribe(_ mailbox: EventMailbox) -> Subscribing {
        state.withLock { state -> Subscribing in
            guard !state.closed, let last = state.last else { return .notReady }
            let learners = state.perLearner[mailbox.learner, default: 0]
            guard learners < streamsPerLearner else { return .learnerHasEnough }
            guard state.mailboxes.count < maximumStreams else { return .full }
            let id = state.nextID
            state.nextID += 1
            state.mailboxes[id] = mailbox
            state.perLearner[mailbox.learner] = learners + 1
            return .subscribed(Subscription(hub: self, id: id, mailbox: mailbox, start: last))
        }
    }

    fileprivate func remove(_ id: Int) {
        state.withLock { state in
            guard let mailbox = state.mailboxes.removeValue(forKey: id) else { return }
            let left = state.perLearner[mailbox.learner, default: 1] - 1
            state.perLearner[mailbox.learner] = left > 0 ? left : nil
        }
    }

    // MARK: - Reading

    /// Reads what the log has after `last` and hands it out (the first read only learns where
    /// the log stands: a stream starts there).
    func catchUp() async {
        let (closed, last) = state.withLock { ($0.closed, $0.last) }
        guard !closed else { return }
        do {
            guard var after = last else {
                let newest = try await log.newestChangeID()
                state.withLock { state in
                    if state.last == nil { state.last = newest }
                    state.readFailed = false
                }
                hear(.ready)
                return
            }
            while true {
                switch try await log.changes(after: after, for: nil, limit: Self.batch) {
                case .gap(let newest):
                    // Changes were forgotten before this process read them (or the database is
                    // not the one it was): every stream reads everything again.
                    logger.warning("change log gap", metadata: ["after": "\(after)", "newest": "\(newest)"])
                    hear(.gap)
                    handOut(through: newest) { $0.readEverything(through: newest) }
                    after = newest
                case .events(let events):
                    let fresh = events.filter { $0.id > after }
                    if let newest = fresh.last?.id {
                        hear(.changes(fresh.map(\.change)))
                        handOut(through: newest) { $0.deliver(fresh) }
                        after = newest
                    }
                    if events.count == Self.batch { continue }
                }
                break
            }
            state.withLock { $0.readFailed = false }
        } catch {
            // Tried again at the next wake-up or tick.
            state.withLock { $0.readFailed = true }
            logger.warning("reading the change log failed", metadata: ["detail": "\(error.technicalMessage)"])
        }
    }

    /// Hands changes through `id` to every mailbox and moves `last` to it, under one lock: a
    /// stream subscribing meanwhile either gets them or starts after them
    /// (`Subscription.start`), never neither.
    private func handOut(through id: Int64, _ hand: (EventMailbox) -> Void) {
        state.withLock { state in
            state.mailboxes.values.forEach(hand)
            state.last = max(state.last ?? id, id)
        }
    }

    /// Keep-alives for the streams that wait, the end for those whose client takes nothing,
    /// and a read again if the last one failed.
    func tick() {
        let (mailboxes, retry) = state.withLock { (Array($0.mailboxes.values), $0.readFailed || $0.last == nil) }
        for mailbox in mailboxes { mailbox.tick(stallTicks: stallTicks) }
        if retry { poke() }
    }
}

/// A stream's place in the hub, from `start` on; leaving it (deinit) takes the mailbox out.
final class Subscription: Sendable {
    let mailbox: EventMailbox
    /// The id through which changes were handed out before this subscription: the ones after
    /// it come to the mailbox.
    let start: Int64
    private let hub: ChangeHub
    private let id: Int

    fileprivate init(hub: ChangeHub, id: Int, mailbox: EventMailbox, start: Int64) {
        self.hub = hub
        self.id = id
        self.mailbox = mailbox
        self.start = start
    }

    deinit {
        hub.remove(id)
        mailbox.finish()
    }
}
