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

    init(
        enrolled: @escaping @Sendable (UserID) async throws(AppError) -> [EnrolledCourse], courses: ReplicaCourses,
        learning: ReplicaLearning, server: any LearningRepository, replica: SQLiteReplica, maxBytes: Int = 200_000_000,
        logger: Logger? = nil, tell: @escaping @MainActor @Sendable (StatusMessage) -> Void = { _ in },
        report: @escaping @MainActor @Sendable (Progress?) -> Void
    ) {
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
        running = Task { [weak self] in
            _ = await previous?.value
            guard let self, let userID, !Task.isCancelled else { return }
            await self.save(userID)
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
        let previous = running
        previous?.cancel()
        running = nil
        await previous?.value
        return try? await replica.clearSavedLessons()
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
