import Logging
import Platform
import Presentation
import Profile
import SharedKernel
import Storage

/// Saves the signed-in learner's enrolled courses in the replica, in the background, after
/// sign-in, after each enrollment and when queued writes reach the server: each course's page,
/// the lessons not saved yet, and the learner's answers and review cards in it, so lessons
/// read and cards reviewed offline are all of them (SPEC, "Remote mode").
actor OfflineSaver {
    /// Courses saved of those enrolled in, while lessons are being downloaded.
    struct Progress: Sendable, Equatable {
        var saved: Int
        var of: Int
    }

    /// The learner's enrolled courses (the replica's ports: the server's list, kept).
    private let enrolled: @Sendable (UserID) async throws(AppError) -> [EnrolledCourse]
    private let courses: ReplicaCourses
    private let learning: ReplicaLearning
    private let server: any LearningRepository
    private let replica: SQLiteReplica
    private let report: @MainActor @Sendable (Progress?) -> Void
    /// Where the learner is told that the cap stopped the save (the footer).
    private let tell: @MainActor @Sendable (StatusMessage) -> Void
    /// How many bytes of lessons the replica may hold (`[offline] max_megabytes`): past it,
    /// no more lessons are saved (the answers and cards still are: they are small).
    private let maxBytes: Int
    /// Where each save's outcome is written (the data directory's log).
    private let logger: Logger?
    /// The save under way; the next one cancels it and starts once it has stopped.
    private var running: Task<Void, Never>?
    /// Bytes of lessons the replica holds, counted once per save and added to as it saves.
    private var used = 0
    /// This save left lessons unsaved for the cap.
    private var capped = false
    private var toldCapped = false
    /// How long learning news must be quiet before what it names is read again, and the
    /// pause between two courses read (an idle terminal asks little of the server: SPEC).
    private let quiet: Duration
    private let pace: Duration
    /// How long after it is asked a save starts.
    private let delay: Duration
    private let clock: any Clock<Duration>
    /// The refresh waiting for the news to be quiet, or under way.
    private var refreshing: Task<Void, Never>?
    /// Courses whose answers and cards the news said changed; `allStale` for a grade, whose
    /// news names no course.
    private var stale: Set<CourseID> = []
    private var allStale = false

    init(
        enrolled: @escaping @Sendable (UserID) async throws(AppError) -> [EnrolledCourse], courses: ReplicaCourses,
        learning: ReplicaLearning, server: any LearningRepository, replica: SQLiteReplica, maxBytes: Int = 200_000_000,
        logger: Logger? = nil, tell: @escaping @MainActor @Sendable (StatusMessage) -> Void = { _ in },
        clock: any Clock<Duration> = ContinuousClock(), quiet: Duration = .seconds(10), pace: Duration = .seconds(1),
        delay: Duration = .zero, report: @escaping @MainActor @Sendable (Progress?) -> Void
    ) {
        self.delay = delay
        self.clock = clock
        self.quiet = quiet
        self.pace = pace
        self.tell = tell
        self.maxBytes = maxBytes
        self.logger = logger
        self.enrolled = enrolled
        self.courses = courses
        self.learning = learning
        self.server = server
        self.replica = replica
        self.report = report
    }

    /// Saves `userID`'s courses from now on (nil: stops, signed out).
    func start(_ userID: UserID?) {
        let previous = running
        previous?.cancel()
        if userID == nil { stopRefreshing() }
        running = Task { [weak self, clock, delay] in
            _ = await previous?.value
            // The screens' first reads go first: a learner's hundreds of courses are read behind them.
            if delay > .zero, userID != nil { _ = try? await clock.sleep(for: delay) }
            guard let self, let userID, !Task.isCancelled else { return }
            await self.save(userID)
        }
    }

    /// The server's news of the learner's answers or grades (here or in another terminal):
    /// the answers and cards saved here for the course (nil: a grade, any course) are read
    /// again once the news has been quiet for a while, a course at a time, so a deck read
    /// offline later is the server's, not the one saved at sign-in.
    func learningChanged(_ userID: UserID, courseID: CourseID?) {
        if let courseID { stale.insert(courseID) } else { allStale = true }
        refreshing?.cancel()
        refreshing = Task { [weak self, clock, quiet] in
            guard (try? await clock.sleep(for: quiet)) != nil else { return }
            await self?.refreshStale(userID)
        }
    }

    /// Waits for the refresh under way, if any (tests).
    func refreshFinished() async {
        await refreshing?.value
    }

    private func stopRefreshing() {
        refreshing?.cancel()
        refreshing = nil
        (stale, allStale) = ([], false)
    }

    private func refreshStale(_ userID: UserID) async {
        // Taken before any wait: news meanwhile marks afresh what it names.
        var courses = Array(stale)
        let all = allStale
        (stale, allStale) = ([], false)
        if all {
            guard let list = try? await enrolled(userID), !Task.isCancelled else {
                // Read once the news is quiet again, or at the next save.
                allStale = true
                stale.formUnion(courses)
                return
            }
            courses = list.map(\.course.id)
        }
        for (index, courseID) in courses.enumerated() {
            // Newer news starts again once quiet: what was not read yet stays stale.
            var stopped = Task.isCancelled
            if !stopped, index > 0 { stopped = (try? await clock.sleep(for: pace)) == nil }
            if stopped {
                stale.formUnion(courses[index...])
                return
            }
            await learning.refresh.refresh(courseID, userID: userID)
        }
    }

    /// What is saved now; nil when it could not be read.
    func saved() async -> SavedOffline? {
        guard let saved = try? await replica.savedLessons() else { return nil }
        return SavedOffline(courses: saved.courses, lessons: saved.lessons, bytes: saved.bytes)
    }

    /// Stops the save under way and forgets the saved lessons (those with an answered question
    /// stay: a card offline shows its question); how many went, nil when they could not.
    func clear() async -> Int? {
        // In the chain of saves: one started meanwhile waits for the clear, never mixes with it.
        let previous = running
        previous?.cancel()
        let clearing = Task { [replica] () -> Int? in
            _ = await previous?.value
            return try? await replica.clearSavedLessons()
        }
        running = Task { _ = await clearing.value }
        return await clearing.value
    }

    /// Waits for the save under way (tests).
    func finished() async {
        await running?.value
    }

    private func save(_ userID: UserID) async {
        guard let list = try? await enrolled(userID), let used = try? await replica.savedLessonBytes() else { return }
        self.used = used
        capped = false
        var complete = true
        var downloading = false
        // Courses saved whole: one that failed partway is not counted.
        var saved = 0
        for one in list {
            guard !Task.isCancelled else { break }
            do throws(AppError) {
                try await save(one.course.id, userID: userID) {
                    downloading = true
                    await self.report(Progress(saved: saved, of: list.count))
                }
                saved += 1
            } catch {
                complete = false
                if error.isUnreachable { break }
            }
            if downloading { await report(Progress(saved: saved, of: list.count)) }
        }
        if complete, !Task.isCancelled, (try? await replica.markCardsSaved(userID: userID)) != nil {
            logger?.info(
                "saved for offline", metadata: ["courses": "\(list.count)", "lesson_bytes": "\(self.used)", "cap_bytes": "\(maxBytes)"])
        } else {
            logger?.info("saving for offline stopped", metadata: ["courses": "\(list.count)"])
        }
        if downloading { await report(nil) }
        // Told the first time a save leaves lessons for the cap (none asked for with 0): the
        // learner reads why some are missing offline, once a run.
        if capped, maxBytes > 0, !toldCapped {
            toldCapped = true
            let megabytes = maxBytes / 1_000_000
            await tell(StatusMessage("Saved for offline up to \(megabytes) MB ([offline] max_megabytes)"))
        }
    }

    /// One course: its page, each lesson not saved yet (`downloading` before the first), and
    /// the learner's answers and cards in it (kept unless a write waits).
    private func save(_ courseID: CourseID, userID: UserID, downloading: () async -> Void) async throws(AppError) {
        _ = try await courses.syllabus(of: courseID)
        let missing = try await replica.unsavedLessons(of: courseID)
        if !missing.isEmpty, used < maxBytes { await downloading() }
        for lesson in missing {
            guard !Task.isCancelled else { break }
            guard used < maxBytes else {
                capped = true
                break
            }
            let content = try await server.lessonContent(courseID: courseID, lesson: lesson)
            await learning.keep(content, courseID: courseID, lesson: lesson)
            used += (content.body?.utf8.count ?? 0) + (QuestionsJSON.encode(content.questions)?.utf8.count ?? 0)
        }
        let answers = try await server.answers(userID: userID, courseID: courseID)
        let cards = try await server.cards(userID: userID, courseID: courseID)
        // Stopped meanwhile (signed out, or a save anew): nothing more is written.
        guard !Task.isCancelled else { return }
        try await replica.adoptLearning(answers, cards: cards, courseID: courseID, userID: userID)
    }
}
