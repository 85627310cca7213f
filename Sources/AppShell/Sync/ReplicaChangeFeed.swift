import SharedKernel
import Synchronization

/// The server's news, and `readEverything` when writes queued earlier reached the server:
/// what the screens read meanwhile was the replica's, and may not be the server's word (the
/// server forgot a place, a course filled). A server that floods news costs one news a screen
/// has not read yet (what came meanwhile is merged into it) and one delivery at a time of the
/// learning news to the replica's saver, however many events came.
final class ReplicaChangeFeed: ChangeFeed {
    /// Changes one merged news names at most; past them it says `readEverything`.
    static let mergedChanges = 64

    private let server: any ChangeFeed
    /// The streams open now, by a number each, and the next number.
    private let listeners = Mutex<(open: [Int: AsyncStream<ChangeNews>.Continuation], next: Int)>(([:], 0))
    /// Told of the server's news of the learner's answers and grades (the course, nil for a
    /// grade or news missed), for the replica to read them again.
    private let learningNews = Mutex<(@Sendable (UserID, CourseID?) async -> Void)?>(nil)
    /// Learning news not yet told to `learningNews`, and whether a delivery is under way.
    private let learningPending = Mutex(LearningPending())

    private struct LearningPending {
        var courses: Set<CourseID> = []
        var anyCourse = false
        /// The delivery under way, if any.
        var delivery: Task<Void, Never>?
    }

    init(server: any ChangeFeed) {
        self.server = server
    }

    func news(for learner: UserID) -> AsyncStream<ChangeNews> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChangeNews.self, bufferingPolicy: .bufferingNewest(1))
        let id = listeners.withLock { listeners in
            defer { listeners.next += 1 }
            listeners.open[listeners.next] = continuation
            return listeners.next
        }
        // Subscribed here, not in the task: no news is missed before it starts.
        let upstream = server.news(for: learner)
        let forwarding = Task { [weak self] in
            for await news in upstream {
                self?.noteLearning(in: news, of: learner)
                Self.yield(news, to: continuation)
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

    /// Keeps the learning news for the saver and starts its delivery unless one is under way.
    private func noteLearning(in news: ChangeNews, of learner: UserID) {
        let courses = Self.learning(in: news)
        guard !courses.isEmpty, learningNews.withLock({ $0 }) != nil else { return }
        learningPending.withLock { pending in
            for courseID in courses {
                if let courseID { pending.courses.insert(courseID) } else { pending.anyCourse = true }
            }
            if pending.delivery == nil { pending.delivery = Task { await self.deliverLearning(of: learner) } }
        }
    }

    /// Waits until the learning news kept so far was told (tests).
    func learningDelivered() async {
        while let delivery = learningPending.withLock({ $0.delivery }) { await delivery.value }
    }

    /// Tells the saver what was kept, again while more comes meanwhile.
    private func deliverLearning(of learner: UserID) async {
        guard let hear = learningNews.withLock({ $0 }) else { return learningPending.withLock { $0.delivery = nil } }
        while true {
            let taken = learningPending.withLock { pending -> (courses: Set<CourseID>, anyCourse: Bool)? in
                guard !pending.courses.isEmpty || pending.anyCourse else {
                    pending.delivery = nil
                    return nil
                }
                defer { (pending.courses, pending.anyCourse) = ([], false) }
                return (pending.courses, pending.anyCourse)
            }
            guard let taken else { return }
            if taken.anyCourse { await hear(learner, nil) }
            for courseID in taken.courses { await hear(learner, courseID) }
        }
    }

    /// `news` to one screen's stream, which keeps one news unread: news not read yet is
    /// merged with it (read meanwhile, its changes are read once more: never missed).
    private static func yield(_ news: ChangeNews, to continuation: AsyncStream<ChangeNews>.Continuation) {
        if case .dropped(let unread) = continuation.yield(news) {
            continuation.yield(unread.merged(with: news, limit: mergedChanges))
        }
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
        for listener in listeners.withLock({ Array($0.open.values) }) { Self.yield(news, to: listener) }
    }
}
