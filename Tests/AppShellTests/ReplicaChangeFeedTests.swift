import SharedKernel
import Synchronization
import Testing

@testable import AppShell

/// A server that floods news: what a screen has not read yet is one merged news, and the
/// replica's saver is told the learning news a delivery at a time, not once per event.
@Suite("Replica change feed under a flood")
struct ReplicaChangeFeedTests {
    /// A feed whose news the test sends.
    final class Upstream: ChangeFeed {
        let continuation = Mutex<AsyncStream<ChangeNews>.Continuation?>(nil)

        func news(for learner: UserID) -> AsyncStream<ChangeNews> {
            let (stream, continuation) = AsyncStream.makeStream(of: ChangeNews.self)
            self.continuation.withLock { $0 = continuation }
            return stream
        }

        func send(_ news: ChangeNews) { _ = continuation.withLock { $0?.yield(news) } }
        func end() { continuation.withLock { $0?.finish() } }
    }

    @Test("10,000 news sent faster than read: merged while unread, none lost; the saver hears each course")
    func flood() async throws {
        let upstream = Upstream()
        let feed = ReplicaChangeFeed(server: upstream)
        let heard = Mutex<[CourseID?]>([])
        feed.whenLearningChanges { _, courseID in heard.withLock { $0.append(courseID) } }
        let news = feed.news(for: UserID(1))
        for index in 0..<10_000 {
            upstream.send(.changed([.course(CourseID("c-\(index % 3)")), .learning(UserID(1), CourseID("c-\(index % 2)"))]))
        }
        upstream.end()

        var read: [ChangeNews] = []
        for await item in news { read.append(item) }
        let expected: Set<Change> = [
            .course("c-0"), .course("c-1"), .course("c-2"), .learning(UserID(1), "c-0"), .learning(UserID(1), "c-1"),
        ]
        #expect(Set(read.flatMap(Self.changes)) == expected, "every change named, none lost")
        await feed.learningDelivered()
        #expect(Set(heard.withLock { $0 }) == ["c-0", "c-1"])
    }

    @Test("news merged: each change once, in order; past the limit, or with everything, read everything")
    func merging() {
        let a = ChangeNews.changed([.course("a"), .catalog])
        #expect(a.merged(with: .changed([.catalog, .course("b")]), limit: 5) == .changed([.course("a"), .catalog, .course("b")]))
        #expect(a.merged(with: .readEverything, limit: 5) == .readEverything)
        #expect(ChangeNews.readEverything.merged(with: a, limit: 5) == .readEverything)
        #expect(a.merged(with: .changed([.course("b"), .course("c")]), limit: 3) == .readEverything)
    }

    static func changes(_ news: ChangeNews) -> [Change] {
        if case .changed(let changes) = news { changes } else { [] }
    }
}
