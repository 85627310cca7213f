import EduGoAPI
import Foundation
import Logging
import OpenAPIRuntime
import SharedKernel
import Synchronization

// MARK: - ChangeFeed

extension RemoteStore: ChangeFeed {
    /// The longest event taken from a server; the API's are under 200 bytes.
    static let eventLimit = 16 * 1024
    /// News the app has not read yet; past it the oldest go, and a `readEverything` stands for them.
    static let newsBuffer = 64
    /// The longest wait before connecting again.
    static let longestReconnectDelay: Duration = .seconds(30)

    /// The learner's changes and the catalog's, from `GET /v1/me/events` with the learner's
    /// access token (renewed as every call's is). The first news is `readEverything`, once the
    /// stream is open: what changed between this call and then cannot be told otherwise. A
    /// stream that drops is opened again after 1, 2, 4 … 30 s (on `clock`) with the last
    /// event's id, so nothing is missed; the server says `readEverything` when it cannot replay
    /// what was missed. The sign-in ending on the server (`signed_out`) ends the session here
    /// as a refused refresh does (`RemoteEvent.sessionEnded`), and the news. Ends too when the
    /// caller stops reading: the request in progress is cancelled with it.
    public func news(for learner: UserID) -> AsyncStream<ChangeNews> {
        let (news, continuation) = AsyncStream.makeStream(of: ChangeNews.self, bufferingPolicy: .bufferingNewest(Self.newsBuffer))
        let feed = RemoteChangeFeed(store: self, learner: learner, news: continuation)
        let following = Task {
            await feed.follow()
            continuation.finish()
        }
        continuation.onTermination = { _ in following.cancel() }
        return news
    }
}

/// One learner's feed: connects, reads events until the stream drops, waits, connects again.
private struct RemoteChangeFeed: Sendable {
    let store: RemoteStore
    let learner: UserID
    let news: AsyncStream<ChangeNews>.Continuation

    /// How one stream ended.
    enum End {
        /// For good: the learner is not signed in here (any more), or the caller stopped.
        case finished
        /// It can be opened again. `healthy`: it served long enough (or made way for a newer
        /// sign-in) that the next wait starts from 1 s again; any other end backs off further,
        /// so a server whose streams fail (an event too long, garbage, a close after `ready`)
        /// is asked at most every 30 s, like any failing request.
        case dropped(healthy: Bool, detail: String)
    }

    func follow() async {
        var position: String?
        var delay = Duration.seconds(1)
        while !Task.isCancelled {
            let stream = StreamState(position: position)
            let end = await connect(stream)
            position = stream.position
            guard case .dropped(let healthy, let detail) = end else { return }
            if healthy { delay = .seconds(1) }
            store.requests.logger.info(
                "event stream dropped", metadata: ["detail": "\(detail)", "retry_in_s": "\(delay.components.seconds)"])
            do { try await store.clock.sleep(for: delay) } catch { return }
            delay = min(delay * 2, RemoteStore.longestReconnectDelay)
        }
    }

    /// Opens the stream after `stream.position` and reads it until it ends.
    private func connect(_ stream: StreamState) async -> End {
        let generation = await store.session.signInGeneration
        let after = stream.position
        let body: HTTPBody
        do {
            body = try await store.authorized(as: learner) { client in
                try await client.streamEvents(headers: .init(lastEventID: after)).ok.body.textEventStream
            }
        } catch {
            switch error {
            case .app(.notSignedIn), .app(.sessionEnded), .cancelled: return .finished
            default: return .dropped(healthy: false, detail: error.technicalDetail)
            }
        }
        let openFor = Stopwatch(store.clock)
        /// A stream that said something and stayed open as long as the longest wait.
        func served() -> Bool { stream.heard && openFor.elapsed >= RemoteStore.longestReconnectDelay }
        do {
            let events = EventSizeLimit(upstream: body, limit: RemoteStore.eventLimit).asDecodedServerSentEvents()
            for try await event in events {
                if let end = await handle(event, stream, generation: generation) { return end }
            }
            return .dropped(healthy: served(), detail: "the server ended the stream")
        } catch {
            if Task.isCancelled { return .finished }
            return .dropped(healthy: served(), detail: String(describing: error).prefix(300).description)
        }
    }

    /// Tells the app what `event` says; how the stream ends, if it does.
    private func handle(_ event: ServerSentEvent, _ stream: StreamState, generation: Int) async -> End? {
        // An event with no name (a keep-alive, a comment) says nothing.
        guard let name = event.event else { return nil }
        let change: ChangeNews?
        switch name {
        // A first stream cannot know what changed between `news(for:)` and its start.
        case "ready": change = stream.isFirst ? .readEverything : nil
        case "read_everything":
            store.lessons.markStale()
            change = .readEverything
        case "profile": change = .changed([.profile(learner)])
        case "catalog":
            // An import may have rewritten lessons read this session.
            store.lessons.markStale()
            change = .changed([.catalog])
        case "enrollment": change = course(of: event, stream).map { .changed([.enrollment(learner, $0)]) }
        case "favourite": change = course(of: event, stream).map { .changed([.favourite(learner, $0)]) }
        case "course": change = course(of: event, stream).map { .changed([.course($0)]) }
        // With a course, a question of it answered; without, a card reviewed.
        case "learning": change = .changed([.learning(learner, course(of: event, stream, optional: true))])
        case "signed_out":
            // This sign-in ended on the server; one of this terminal's since then goes on.
            if await store.session.signInEnded(generation: generation) { return .finished }
            return .dropped(healthy: true, detail: "an earlier sign-in ended")
        default:
            // A name of a later version of the API.
            return nil
        }
        stream.heard = true
        if let id = event.id, Self.isEventID(id) { stream.position = id }
        if let change, case .dropped = news.yield(change) {
            // The app fell behind and the oldest news went: it reads everything instead.
            news.yield(.readEverything)
        }
        return nil
    }

    /// The course an event is about, if the server named a valid one. `optional`: the event
    /// may name none (`learning`), which is no fault to log.
    private func course(of event: ServerSentEvent, _ stream: StreamState, optional: Bool = false) -> CourseID? {
        let decoded = event.data.flatMap { try? JSONDecoder().decode(Components.Schemas.ChangeEventData.self, from: Data($0.utf8)) }
        if let id = decoded?.courseId, CourseLimits.isValidID(id) { return CourseID(id) }
        if optional, let decoded, decoded.courseId == nil { return nil }
        // Once a stream: a server sending nothing else must not fill the log.
        if !stream.warned {
            stream.warned = true
            store.requests.logger.warning("ignored an event from \(store.requests.host) without a valid course")
        }
        return nil
    }

    /// An id this client keeps to resume from: what the server gives (`<log>-<n>`), at most
    /// 128 visible ASCII characters; anything else is not kept (nor sent back).
    static func isEventID(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}

/// Where a stream stands, read after it ends.
private final class StreamState: Sendable {
    private struct Values {
        var position: String?
        var heard = false
        var warned = false
    }

    private let values: Mutex<Values>
    /// Whether no stream of this feed gave an id yet: then nothing says what came before.
    let isFirst: Bool

    init(position: String?) {
        values = Mutex(Values(position: position))
        isFirst = position == nil
    }

    /// The id of the last event read, to resume after.
    var position: String? {
        get { values.withLock { $0.position } }
        set { values.withLock { $0.position = newValue } }
    }

    /// Whether the stream said anything (with time served, the next wait starts again from 1 s).
    var heard: Bool {
        get { values.withLock { $0.heard } }
        set { values.withLock { $0.heard = newValue } }
    }

    /// Whether an event of it was refused and logged.
    var warned: Bool {
        get { values.withLock { $0.warned } }
        set { values.withLock { $0.warned = newValue } }
    }
}
