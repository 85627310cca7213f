import RemoteStore
import SharedKernel
import Storage

extension AppPorts {
    /// Remote mode over a replica in `database`: the learner's ports write through its outbox
    /// and read it when writes wait or `store` is away; pages and lessons read are kept; the
    /// news says when the screens read again. Returns the sender, whose reports go to `status`.
    @MainActor
    mutating func replicate(_ store: RemoteStore, on database: AppDatabase, status: SyncStatus) -> OutboxSync {
        let outbox = SQLiteOutbox(database: database)
        let sync = OutboxSync(outbox: outbox, server: store) { report in status.take(report) }
        let seen = SeenCourses()
        let replica = SQLiteReplica(database: database)
        let own = ReplicaPorts(
            server: .init(
                restore: { known throws(AppError) in try await store.restoreSession(knowing: known) }, courses: store,
                enrollments: store, favourites: store, profiles: store, sessions: store),
            seen: seen, database: database, outbox: outbox, sync: sync)
        let courses = ReplicaCourses(server: store, seen: seen, replica: replica, here: SQLiteCourseRepository(database: database))
        let feed = ReplicaChangeFeed(server: store)
        status.readAgain = { feed.readEverything() }
        self.courses = courses
        changes = feed
        learning = ReplicaLearning(server: store, courses: courses, replica: replica, here: SQLiteLearningRepository(database: database))
        (enrollments, favourites, profiles, sessions) = (own, own, own, own)
        return sync
    }
}
