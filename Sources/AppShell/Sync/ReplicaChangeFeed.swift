import SharedKernel
import Synchronization

/// The server's news, and `readEverything` when writes queued earlier reached the server:
/// what the screens read meanwhile was the replica's, and may not be the server's word (the
/// server forgot a place, a course filled).
final class ReplicaChangeFeed: ChangeFeed {
    private let server: any ChangeFeed
    /// The streams open now, by a number each, and the next number.
    private let listeners = Mutex<(open: [Int: AsyncStream<ChangeNews>.Continuation], next: Int)>(([:], 0))
    /// Told of the server's news of the learner's answers and grades (the course, nil for a
    /// grade or news missed), for the replica to read them again.
    private let learningNews = Mutex<(@Sendable (UserID, CourseID?) async -> Void)?>(nil)

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
        // Subscribed here, not in the task: no news is missed before it starts.
        let upstream = server.news(for: learner)
        let forwarding = Task { [weak self] in
            for await news in upstream {
                if let hear = self?.learningNews.withLock({ $0 }) {
                    for courseID in Self.learning(in: news) { await hear(learner, courseID) }
                }
                continuation.yield(news)
            }
            continuation.finish()
        }
        continuation.onTermination = { [weak self] _ in
            forwarding.cancel()
            _ = self?.listeners.withLock { $0.open.removeValue(forKey: id) }
        }
        return stream
    }

    /// `hear` is told of the server's news of the learner's answers and grades from now on.
    func whenLearningChanges(_ hear: @escaping @Sendable (UserID, CourseID?) async -> Void) {
        learningNews.withLock { $0 = hear }
    }

    /// The courses whose answers or cards `news` says changed: nil for any (a grade, whose
    /// news names no course, or news missed).
    private static func learning(in news: ChangeNews) -> [CourseID?] {
        switch news {
        case .readEverything: return [nil]
        case .changed(let changes):
            return changes.compactMap { change in
                guard case .learning(_, let courseID) = change else { return nil }
                return .some(courseID)
            }
        }
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
