import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServerTestSupport
import SharedKernel
import Synchronization
import TestSupport
import Testing

@testable import RemoteStore

/// A hostile (or broken) server's event stream: an event without end, garbage, names and ids
/// the API never sends. The feed takes what is valid, drops the stream at the first event past
/// its limit, and neither crashes nor holds more than that limit.
@Suite("Hostile event stream")
struct HostileEventStreamTests {
    /// A stream that never ends an event.
    enum Flood: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case endlessLine = "one line without end"
        case endlessEvent = "one event of short lines without end"
        case hugeID = "an id of 1 MiB"

        var testDescription: String { rawValue }
    }

    /// No time limit: it may wait, on a loaded machine, for a test of a 100 k suite to end
    /// (`.measuresMemory`); what it waits on ends, and a flood that would not end is cut by the
    /// store's own limits, which the test holds it to.
    @Test(
        "an event without end is cut at the event limit: the stream is dropped, read no further, and nothing is told",
        .measuresMemory, arguments: Flood.allCases)
    func flood(_ flood: Flood) async throws {
        let router = Router()
        RouterServer.addSignIn(to: router)
        router.get("/v1/me/events") { _, _ in Self.flooding(flood) }
        let server = try await RouterServer.start(router)
        let url = server.url
        try await server.stopping {
            let (store, clock, read, client) = Self.makeSUT(url)
            defer { client.remove() }
            let learner = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo")
            let peakIsReset = ProcessMemory.resetHighWaterMark()
            let before = try #require(ProcessMemory.resident())

            let told = Self.collect(store.news(for: learner.id))
            // Dropped, the feed waits to open it again.
            await clock.waitForSleeper()
            told.cancel()

            let after = try #require(peakIsReset ? ProcessMemory.residentHighWaterMark() : ProcessMemory.resident())
            #expect(await told.value == [])
            #expect(read.value <= RemoteStore.eventLimit + 128 * 1024, "the feed read \(read.value / 1024) KiB of an endless event")
            #expect(
                after - before < HostileServerTests.memoryBound,
                "resident memory went from \(before / 1024) KiB to a peak of \(after / 1024) KiB")
        }
    }

    @Test(
        "garbage, comments, unknown events, invalid course ids and ids are skipped; the valid events are told, and the last valid id is sent back"
    )
    func garbage() async throws {
        let seen = Mutex<[String?]>([])
        let router = Router()
        RouterServer.addSignIn(to: router)
        router.get("/v1/me/events") { request, _ in
            seen.withLock { $0.append(request.headers[HTTPField.Name("Last-Event-ID")!]) }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream"], body: .init(byteBuffer: ByteBuffer(bytes: Self.garbageStream)))
        }
        let server = try await RouterServer.start(router)
        let url = server.url
        try await server.stopping {
            let (store, clock, _, client) = Self.makeSUT(url)
            defer { client.remove() }
            let learner = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo")

            var news = store.news(for: learner.id).makeAsyncIterator()
            let told = [await news.next(), await news.next(), await news.next()]
            // The body ends: the feed waits, then opens the stream again after the last valid id.
            await clock.waitForSleeper()
            clock.advance(by: .seconds(1))
            let again = await news.next()

            #expect(told == [.changed([.catalog]), .changed([.favourite(learner.id, "good-1")]), .changed([.profile(learner.id)])])
            #expect(again == .changed([.catalog]))
            #expect(seen.withLock { $0 } == [nil, "log-5"])
        }
    }

    @Test(
        "a stream that fails soon after it opens (an event past the limit after ready) is opened again after 1, 2, 4 … 30 s, not every second"
    )
    func failingStreamBacksOff() async throws {
        let opened = Counter()
        let router = Router()
        RouterServer.addSignIn(to: router)
        router.get("/v1/me/events") { _, _ in
            opened.add(1)
            let tooLong = String(repeating: "a", count: RemoteStore.eventLimit + 1)
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream"],
                body: .init(byteBuffer: ByteBuffer(string: "id: log-1\nevent: ready\ndata: {}\n\ndata: \(tooLong)\n\n")))
        }
        let server = try await RouterServer.start(router)
        let url = server.url
        try await server.stopping {
            let client = TemporaryDirectory(prefix: "edugo-hostile-events")
            defer { client.remove() }
            let clock = ManualClock()
            let store = RemoteStore(
                server: url, dataDirectory: client.url, httpClient: testHTTPClient, clock: clock, timeLimitClock: ManualClock())
            let learner = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo")

            let told = Self.collect(store.news(for: learner.id))
            let waits = await clock.runSleeps(7)
            told.cancel()

            #expect(waits == [1, 2, 4, 8, 16, 30, 30].map { Duration.seconds($0) })
            #expect(opened.value >= 7)
            #expect(await told.value.first == .readEverything, "what came before the fault was told")
        }
    }

    // MARK: - Helpers

    /// What `garbage` sends, then ends.
    static let garbageStream: [UInt8] =
        [0, 0xFF, 0xFE, 0x80] + Array("binary\n:a comment\n".utf8)
        + Array(
            """
            event: surprise
            data: {"anything": 1}

            event: course
            data: {"course_id": "../../v1/me"}

            event: favourite
            data: not json

            event: enrollment
            data: {"course_id": 12}

            retry: 1

            id: \(String(repeating: "a", count: 1_000))
            event: catalog
            data: {}

            id: log-5
            event: favourite
            data: {"course_id": "good-1"}

            id: log-\u{7}6
            event: profile
            data: {}


            """.utf8)

    /// A store on `url` whose feed waits on a clock of the test's, counting the bytes it reads.
    /// Its requests' time limits are on a clock no test moves, as in the other suites not about
    /// time limits (InProcessServer.swift says why): on the wall clock, a loaded machine kept
    /// the stream's request past 10 s, the feed waited on the test's clock, and `garbage` hung.
    static func makeSUT(_ url: URL) -> (RemoteStore, ManualClock, Counter, TemporaryDirectory) {
        let client = TemporaryDirectory(prefix: "edugo-hostile-events")
        let clock = ManualClock()
        let read = Counter()
        let store = RemoteStore(
            server: url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimit: RemoteStore.defaultTimeLimit,
            logger: Logger(label: "hostile-events", factory: { _ in SwiftLogNoOpLogHandler() }), now: Date.init,
            nextToTransport: [HostileServerTests.ReadCounter(read: read)], clock: clock, timeLimitClock: ManualClock())
        return (store, clock, read, client)
    }

    /// Everything `news` tells until the task is cancelled.
    static func collect(_ news: AsyncStream<ChangeNews>) -> Task<[ChangeNews], Never> {
        Task {
            var told: [ChangeNews] = []
            for await item in news { told.append(item) }
            return told
        }
    }

    /// An event stream that never ends its first event, 64 KiB a write.
    static func flooding(_ flood: Flood) -> Response {
        let opening: String =
            switch flood {
            case .endlessLine: "event: catalog\ndata: "
            case .endlessEvent: "event: catalog\n"
            case .hugeID: "id: "
            }
        let piece: String =
            switch flood {
            case .endlessLine, .hugeID: "x"
            case .endlessEvent: "data: x\n"
            }
        let chunk = ByteBuffer(string: String(repeating: piece, count: 64 * 1024 / piece.utf8.count))
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: opening))
            var written = 0
            // Until the reader goes (a write fails), or the server shuts down.
            while !RunningService.isShuttingDown, flood != .hugeID || written < 1024 * 1024 {
                try await writer.write(chunk)
                written += chunk.readableBytes
            }
            try await writer.write(ByteBuffer(string: "\nevent: catalog\ndata: {}\n\n"))
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream"], body: body)
    }
}
