import Catalog
import Logging
import Profile
import RemoteStore
import SharedKernel
import Storage

/// Remote mode's replica at work: the queue's sender and the saver of courses for offline.
struct Replication: Sendable {
    let sync: OutboxSync
    let saver: OfflineSaver

    /// The server answers again: the queue is sent (the screens then read again), and when
    /// it delivered writes, the enrolled courses are saved anew (their cards as the server
    /// merged them); not on every return, which would read every course each time.
    func catchUp() async {
        guard let sent = await sync.send(catchingUp: true), sent.answered > 0, let learner = await sync.following else { return }
        await saver.start(learner)
    }

    /// The lessons saved, as the profile shows and clears them.
    var shelf: OfflineShelf {
        OfflineShelf(saved: { await saver.saved() }, clear: { await saver.clear() })
    }
}

extension AppPorts {
    /// Remote mode over a replica in `database`: the learner's ports write through its outbox
    /// and read it when writes wait or `store` is away; pages and lessons read are kept, and
    /// the enrolled courses saved; the news says when the screens read again. What the sender
    /// and the saver report goes to `status`. `startHold` is opened when the start's first
    /// frame needs the server: no page is kept to draw it from, or writes queued before go first.
    @MainActor
    mutating func replicate(
        _ store: RemoteStore, on database: AppDatabase, status: SyncStatus, savingUpTo maxBytes: Int, logger: Logger? = nil,
        startHold: StartHold? = nil
    ) -> Replication {
        let outbox = SQLiteOutbox(database: database)
        let replica = SQLiteReplica(database: database)
        let sync = OutboxSync(outbox: outbox, server: store, refresh: LearningRefresh(server: store, replica: replica)) { report in
            status.take(report)
        }
        let seen = SeenCourses()
        let feed = ReplicaChangeFeed(server: store)
        let opening = OpeningPage(serverNeeded: { startHold?.open() })
        let courses = ReplicaCourses(
            server: store, seen: seen, replica: replica, here: SQLiteCourseRepository(database: database),
            searching: { count in status.take(savedSearch: count) }, opening: opening, openingRows: CatalogFeature.pageSize,
            changed: { feed.changedHere($0) })
        let learning = ReplicaLearning(
            server: store, courses: courses, replica: replica, here: SQLiteLearningRepository(database: database), outbox: outbox,
            sync: sync, feed: feed)
        let saver = OfflineSaver(
            enrolled: { id throws(AppError) in try await store.enrolledCourses(userID: id) }, courses: courses, learning: learning,
            server: store, replica: replica, maxBytes: maxBytes, logger: logger, tell: { message in status.say(message) },
            delay: .seconds(2), report: { progress in status.take(saving: progress) })
        let own = ReplicaPorts(
            server: .init(
                restore: { known throws(AppError) in try await store.restoreSession(knowing: known) }, courses: store,
                enrollments: store, favourites: store, profiles: store, sessions: store),
            seen: seen, database: database, outbox: outbox, sync: sync, saver: saver, opening: opening)
        status.readAgain = { feed.readEverything() }
        status.answersChecked = { learner, courses in
            for courseID in courses.sorted(by: { $0.rawValue < $1.rawValue }) { feed.changedHere(.learning(learner, courseID)) }
        }
        feed.whenLearningChanges { learner, courseID in await saver.learningChanged(learner, courseID: courseID) }
        self.courses = courses
        changes = feed
        self.learning = learning
        (enrollments, favourites, profiles, sessions) = (own, own, own, own)
        return Replication(sync: sync, saver: saver)
    }
}
