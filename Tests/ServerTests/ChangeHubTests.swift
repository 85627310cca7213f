import Logging
import SharedKernel
import Synchronization
import TestSupport
import Testing

@testable import Server

/// The hub that fans one process's change log out to its event streams: who hears what, and
/// what a slow, silent or departed stream costs.
@Suite("Change hub")
struct ChangeHubTests {
    @Test("each stream gets its learner's changes and the public ones, in order; a sign-in's end goes to its own streams only")
    func whoHearsWhat() async throws {
        let (hub, log) = await makeSUT()
        let demoHere = try #require(hub.subscribe(Self.mailbox(learner: 1, signIn: "here")).subscription)
        let demoThere = try #require(hub.subscribe(Self.mailbox(learner: 1, signIn: "there")).subscription)
        let other = try #require(hub.subscribe(Self.mailbox(learner: 2, signIn: "other")).subscription)

        log.append([
            .favourite(UserID(1), "swift-101"), .course("swift-101"), .signedOut(UserID(1), signIn: "here"), .profile(UserID(2)),
            .catalog,
        ])
        await hub.catchUp()

        #expect(await demoHere.mailbox.next() == .events(log.events([1, 2, 3, 5])))
        #expect(await demoThere.mailbox.next() == .events(log.events([1, 2, 5])))
        #expect(await other.mailbox.next() == .events(log.events([2, 4, 5])))
        #expect([demoHere.start, demoThere.start, other.start] == [0, 0, 0])
    }

    @Test("a stream subscribed after a read starts after what that read handed out")
    func startsWhereTheHubStands() async throws {
        let (hub, log) = await makeSUT()
        log.append([.catalog, .catalog])
        await hub.catchUp()

        let late = try #require(hub.subscribe(Self.mailbox(learner: 1, signIn: "late")).subscription)
        log.append([.course("swift-101")])
        await hub.catchUp()

        #expect(late.start == 2)
        #expect(await late.mailbox.next() == .events(log.events([3])))
    }

    @Test("no stream before the hub knows where the log stands, nor after it closed; closing ends every stream")
    func subscribeOnlyWhileOpen() async throws {
        let hub = ChangeHub(
            log: ManualChangeLog(), keepAliveInterval: .seconds(15), stallLimit: .seconds(30), clock: ManualClock(), logger: Self.logger)
        let early = hub.subscribe(Self.mailbox(learner: 1, signIn: "early")).subscription
        await hub.catchUp()
        let open = try #require(hub.subscribe(Self.mailbox(learner: 1, signIn: "open")).subscription)

        hub.close()

        #expect(early == nil)
        #expect(await open.mailbox.next() == nil)
        #expect(hub.subscribe(Self.mailbox(learner: 1, signIn: "late")).subscription == nil)
    }

    @Test("a stream more than 1,000 events behind gets one read_everything for all of them, while another takes every event")
    func slowReader() async throws {
        let (hub, log) = await makeSUT()
        let slow = try #require(hub.subscribe(Self.mailbox(learner: 1, signIn: "slow")).subscription)
        let quick = try #require(hub.subscribe(Self.mailbox(learner: 1, signIn: "quick")).subscription)

        var quickTook = 0
        for _ in 0..<3 {
            log.append(Array(repeating: .catalog, count: 400))
            await hub.catchUp()
            if case .events(let events)? = await quick.mailbox.next() { quickTook += events.count }
        }
        let behind = await slow.mailbox.next()
        log.append([.course("swift-101")])
        await hub.catchUp()
        let after = await slow.mailbox.next()

        #expect(quickTook == 1_200)
        #expect(behind == .readEverything(through: 1_200))
        #expect(after == .events(log.events([1_201])))
    }

    @Test("a log that forgot what the hub had not read yet makes every stream read everything")
    func gap() async throws {
        let (hub, log) = await makeSUT()
        let stream = try #require(hub.subscribe(Self.mailbox(learner: 1, signIn: "s")).subscription)

        log.forget(through: 5, newest: 9)
        await hub.catchUp()

        #expect(await stream.mailbox.next() == .readEverything(through: 9))
    }

    @Test("a stream gets a keep-alive each tick it has nothing else; one busy writing for the stall limit has its connection closed")
    func keepAliveAndStall() async throws {
        let (hub, _) = await makeSUT()
        let closed = Counter()
        let waiting = try #require(hub.subscribe(Self.mailbox(learner: 1, signIn: "waiting")).subscription)
        let stalled = try #require(
            hub.subscribe(EventMailbox(learner: UserID(1), signIn: "stalled", closeConnection: { closed.add(1) })).subscription)

        hub.tick()
        let keepAlive = await waiting.mailbox.next()
        for _ in 1..<(hub.stallTicks - 1) { hub.tick() }
        let closedBeforeTheLimit = closed.value
        hub.tick()

        #expect(keepAlive == .keepAlive)
        #expect(hub.stallTicks == 3, "30 s at a tick every 15 s, and a tick more: closed after 30 to 45 s")
        #expect(closedBeforeTheLimit == 0)
        #expect(closed.value == 1)
        #expect(await stalled.mailbox.next() == nil, "the stalled stream ended")
    }

    @Test("a stream that goes (the client left, its iterator released) leaves the hub")
    func departedStreamsLeave() async throws {
        let (hub, _) = await makeSUT()
        var subscriptions = (0..<100).compactMap { number in hub.subscribe(Self.mailbox(learner: 1, signIn: "s\(number)")) }
        let open = hub.streamCount

        subscriptions.removeAll()

        #expect(open == 100)
        #expect(hub.streamCount == 0)
    }

    @Test("a wake-up of the database makes the running hub read the log and hand out what it found")
    func wakeUpReads() async throws {
        let (hub, log) = await makeSUT()
        let stream = try #require(hub.subscribe(Self.mailbox(learner: 1, signIn: "s")).subscription)
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self)
        let running = Task { await hub.run(wakeups: wakeups) }
        defer { running.cancel() }

        log.append([.catalog])
        wake.yield()

        #expect(await stream.mailbox.next() == .events(log.events([1])))
    }

    // MARK: - Helpers

    static let logger = Logger(label: "hub-tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A hub over an empty manual log, which has read where the log stands (nothing yet).
    private func makeSUT() async -> (ChangeHub, ManualChangeLog) {
        let log = ManualChangeLog()
        let hub = ChangeHub(log: log, keepAliveInterval: .seconds(15), stallLimit: .seconds(30), clock: ManualClock(), logger: Self.logger)
        await hub.catchUp()
        return (hub, log)
    }

    static func mailbox(learner: Int64, signIn: String) -> EventMailbox {
        EventMailbox(learner: UserID(learner), signIn: signIn, closeConnection: {})
    }
}

/// A change log a test writes by hand: ids from 1 in order, and a horizon it can move.
final class ManualChangeLog: ChangeLog, Sendable {
    private struct State {
        var events: [ChangeEvent] = []
        var forgottenThrough: Int64 = 0
        var newest: Int64 = 0
    }

    private let state = Mutex(State())

    func append(_ changes: [Change]) {
        state.withLock { state in
            for change in changes {
                state.newest += 1
                state.events.append(ChangeEvent(id: state.newest, change: change))
            }
        }
    }

    func forget(through id: Int64, newest: Int64) {
        state.withLock { state in
            state.forgottenThrough = id
            state.newest = newest
            state.events.removeAll { $0.id <= id }
        }
    }

    func events(_ ids: [Int64]) -> [ChangeEvent] {
        state.withLock { state in state.events.filter { ids.contains($0.id) } }
    }

    func newestChangeID() async throws(AppError) -> Int64 {
        state.withLock { $0.newest }
    }

    func changes(after id: Int64, for learner: UserID?, limit: Int) async throws(AppError) -> ChangeBatch {
        state.withLock { state in
            guard id >= state.forgottenThrough, id <= state.newest else { return .gap(newest: state.newest) }
            let after = state.events.filter { $0.id > id && (learner == nil || $0.change.learner == nil || $0.change.learner == learner) }
            return .events(Array(after.prefix(limit)))
        }
    }
}
