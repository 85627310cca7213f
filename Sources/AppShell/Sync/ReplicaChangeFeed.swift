import SharedKernel
import Synchronization

/// The server's news, and `readEverything` when writes queued earlier reached the server:
/// what the screens read meanwhile was the replica's, and may not be the server's word (the
/// server forgot a place, a course filled).
final class ReplicaChangeFeed: ChangeFeed {
    private let server: any ChangeFeed
    /// The streams open now, by a number each, and the next number.
    private let listeners = Mutex<(open: [Int: AsyncStream<ChangeNews>.Continuation], next: Int)>(([:], 0))

    init(server: any ChangeFeed) {
        self.server = server
    }

    func news(for learner: UserID) -> AsyncStream<ChangeNews> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChangeNews.self)
        let id = listeners.withLock { listeners in
            defer { listeners.next += 1 }
            listeners.open[listeners.next] = continuation
            return listeners.next
        }
        let forwarding = Task { [server] in
            for await news in server.news(for: learner) { continuation.yield(news) }
            continuation.finish()
        }
        continuation.onTermination = { [weak self] _ in
            forwarding.cancel()
            _ = self?.listeners.withLock { $0.open.removeValue(forKey: id) }
        }
        return stream
    }

    /// Every screen reads again what it shows.
    func readEverything() {
        tell(.readEverything)
    }

    /// A change made here that the server does not know of yet (an answer queued offline):
    /// the screens that show it read it again, from the replica.
    func changedHere(_ change: Change) {
        tell(.changed([change]))
    }

    private func tell(_ news: ChangeNews) {
        for listener in listeners.withLock({ Array($0.open.values) }) { listener.yield(news) }
    }
}
