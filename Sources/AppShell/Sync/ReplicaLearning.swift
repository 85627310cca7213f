import Foundation
import SharedKernel
import Storage
import Synchronization

/// Remote mode's lessons, answers and reviews over the replica. Lessons read are kept for
/// reading offline. An answer is checked by the server (it alone knows the right choices) and
/// kept with the card the same rules start, so it can be reviewed offline; one given while the
/// server cannot be reached is queued unchecked, and checked when it is sent. Reviews and their undo
/// go to the server while nothing waits (with the learner's settings), mirrored here; while
/// the server cannot be reached, a card saved here is graded here and the grade queued as an
/// operation (`⇡`), merged into the card's log on the server.
struct ReplicaLearning: LearningRepository {
    let server: any LearningRepository
    /// For the lessons' titles a lesson's text hangs on, when the replica has none yet.
    let courses: ReplicaCourses
    let replica: SQLiteReplica
    let here: SQLiteLearningRepository
    let outbox: SQLiteOutbox
    let sync: OutboxSync
    /// Where an answer queued here is told, for the screens showing the course to read it.
    var feed: ReplicaChangeFeed?
    /// When each grade queued here was kept, by the instant the screen gave it: the outbox's
    /// clock never goes back, so a grade may be kept a moment after the screen's instant,
    /// which its undo names.
    let gradeTimes = GradeTimes()

    func lessonContent(courseID: CourseID, lesson: Int) async throws(AppError) -> LessonContent {
        do {
            let content = try await server.lessonContent(courseID: courseID, lesson: lesson)
            await keep(content, courseID: courseID, lesson: lesson)
            return content
        } catch  where error.isUnreachable {
            guard let kept = try? await here.lessonContent(courseID: courseID, lesson: lesson), kept.body != nil || !kept.questions.isEmpty
            else { throw error }
            return kept
        }
    }

    /// A replica that cannot keep the lesson leaves it as the server gave it: the learner
    /// reads it now, and only offline would miss it.
    func keep(_ content: LessonContent, courseID: CourseID, lesson: Int) async {
        do {
            guard try await !replica.keep(content, courseID: courseID, lesson: lesson) else { return }
            _ = try await courses.syllabus(of: courseID)
            try await replica.keep(content, courseID: courseID, lesson: lesson)
        } catch {
            return
        }
    }

    var refresh: LearningRefresh { LearningRefresh(server: server, replica: replica) }

    /// With the answers queued and not checked yet.
    func answers(userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer] {
        let answers = try await read(userID: userID) { () async throws(AppError) in
            try await server.answers(userID: userID, courseID: courseID)
        } here: { () async throws(AppError) in
            try await here.answers(userID: userID, courseID: courseID)
        }
        return try await withQueued(answers, userID: userID, courseID: courseID)
    }

    /// `answers`, and after them those queued for other questions (the first queued of a
    /// question: the one the server keeps).
    private func withQueued(_ answers: [Answer], userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer] {
        let queued = try await outbox.pendingAnswers(userID: userID, courseID: courseID)
        var answered = Set(answers.map(\.ref))
        return answers + queued.filter { answered.insert($0.ref).inserted }
    }

    func cards(userID: UserID, courseID: CourseID) async throws(AppError) -> [CourseCard] {
        try await read(userID: userID) { () async throws(AppError) in
            try await server.cards(userID: userID, courseID: courseID)
        } here: { () async throws(AppError) in
            try await here.cards(userID: userID, courseID: courseID)
        }
    }

    /// The server's verdict, after the writes queued before it (an enrollment made offline);
    /// kept here with its card for reviewing offline. While the server cannot be reached (or
    /// writes before it cannot be sent), the answer is queued unchecked, if the lesson is
    /// saved here; one kept or queued before for the question is the one returned.
    func answer(_ chosen: Set<Int>, to question: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> Answer
    {
        var unreachable: AppError?
        if await sendQueue(userID: userID) {
            do {
                let answer = try await server.answer(chosen, to: question, userID: userID, at: time, settings: settings)
                let card = LearningRules.firstCard(of: answer, userID: userID, time: time, settings: settings)
                try? await replica.keep(answer, card: card, at: time, userID: userID)
                return answer
            } catch  where error.isUnreachable {
                unreachable = error
            }
        }
        let queued: SyncOperation?
        do {
            queued = try await outbox.queueAnswer(chosen, to: question, userID: userID, at: time, settings: settings)
        } catch {
            // A lesson not saved here needed the server: that is the reason to tell.
            if case .noSuchLesson = error, let unreachable { throw unreachable }
            throw error
        }
        guard let operation = queued else {
            // Answered before, here or in the queue: that first answer stands.
            let kept = try await withQueued(
                here.answers(userID: userID, courseID: question.courseID), userID: userID, courseID: question.courseID)
            return kept.first { $0.ref == question } ?? .unchecked(chosen, to: question)
        }
        let sent = await sync.send(userID: userID, claiming: operation.id)
        if let refusal = sent.refused.first(where: { $0.0.id == operation.id }) { throw refusal.1 }
        // Sent after all (the server came back): checked, and read back when the send ended.
        if sent.checkedAnswers.contains(question.courseID),
            let checked = try? await here.answers(userID: userID, courseID: question.courseID).first(where: { $0.ref == question })
        {
            return checked
        }
        feed?.changedHere(.learning(userID, question.courseID))
        return .unchecked(chosen, to: question)
    }

    func reviewDeck(userID: UserID, at time: StudyTime, limit: Int, settings: ReviewSettings) async throws(AppError) -> ReviewDeck {
        // Grades waiting to be sent are in the replica's deck only.
        if try await outbox.count(userID: userID) > 0, try await replica.holds(.cards, userID: userID) {
            return try await here.reviewDeck(userID: userID, at: time, limit: limit, settings: settings)
        }
        do {
            return try await server.reviewDeck(userID: userID, at: time, limit: limit, settings: settings)
        } catch  where error.isUnreachable {
            guard try await replica.holds(.cards, userID: userID) else { throw error }
            return try await here.reviewDeck(userID: userID, at: time, limit: limit, settings: settings)
        }
    }

    func review(_ question: QuestionRef, grade: ReviewGrade, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> CardSchedule
    {
        gradeTimes.use(settings)
        if await sendQueue(userID: userID) {
            do {
                let schedule = try await server.review(question, grade: grade, userID: userID, at: time, settings: settings)
                // Mirrored, for an undo offline; a card the replica has older may refuse it.
                _ = try? await here.review(question, grade: grade, userID: userID, at: time, settings: settings)
                return schedule
            } catch  where error.isUnreachable {
                guard try await replica.hasCard(question, userID: userID) else { throw error }
            }
        } else if try await !replica.hasCard(question, userID: userID) {
            // Not saved here: the server's word (most likely that it cannot be reached).
            return try await server.review(question, grade: grade, userID: userID, at: time, settings: settings)
        }
        let kept = try await write(
            .review(question, grade: grade, secondsFromGMT: time.secondsFromGMT), settings: settings, userID: userID, at: time.now)
        gradeTimes.remember(question, asked: time.now, kept: kept)
        return try await card(question, userID: userID)
    }

    func undoReview(_ question: QuestionRef, reviewedAt asked: Date, userID: UserID) async throws(AppError) -> CardSchedule {
        let reviewedAt = gradeTimes.kept(question, asked: asked)
        if await sendQueue(userID: userID) {
            do {
                let schedule = try await server.undoReview(question, reviewedAt: reviewedAt, userID: userID)
                _ = try? await here.undoReview(question, reviewedAt: reviewedAt, userID: userID)
                return schedule
            } catch  where error.isUnreachable {
                guard try await replica.hasGrade(question, reviewedAt: reviewedAt, userID: userID) else { throw error }
            }
        } else if try await !replica.hasGrade(question, reviewedAt: reviewedAt, userID: userID) {
            return try await server.undoReview(question, reviewedAt: reviewedAt, userID: userID)
        }
        // The grades after the one taken back are replayed by the settings the learner grades by.
        try await write(.undoReview(question, reviewedAt: reviewedAt), settings: gradeTimes.settings, userID: userID, at: nil)
        return try await card(question, userID: userID)
    }

    /// The server's, kept for offline; the replica's (its cards, and the grades given here
    /// added to the server's last counts) by the rules of `read`, once the server gave one.
    func memory(userID: UserID, at time: StudyTime) async throws(AppError) -> MemoryPicture {
        try await read(userID: userID) { () async throws(AppError) in
            let picture = try await server.memory(userID: userID, at: time)
            try? await replica.keep(picture, at: time, userID: userID)
            return picture
        } here: { () async throws(AppError) in
            try await replica.memory(userID: userID, at: time)
        }
    }

    /// As `memory`: the streak the server last gave, extended by the days learnt on here.
    func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit {
        try await read(userID: userID) { () async throws(AppError) in
            let habit = try await server.habit(userID: userID, on: day, secondsFromGMT: secondsFromGMT)
            try? await replica.keep(habit, on: day, userID: userID)
            return habit
        } here: { () async throws(AppError) in
            try await replica.habit(userID: userID, on: day, secondsFromGMT: secondsFromGMT)
        }
    }

    // MARK: The rules of reading and writing

    /// The server's word while nothing waits; the replica's while writes wait or the server
    /// cannot be reached, once every enrolled course's cards were saved here (and the replica
    /// has an answer: nil, it has none of its own).
    private func read<Value>(
        userID: UserID, fromServer: () async throws(AppError) -> Value, here: () async throws(AppError) -> Value?
    ) async throws(AppError) -> Value {
        let saved = try await replica.holds(.cards, userID: userID)
        if saved, try await outbox.count(userID: userID) > 0, let kept = try await here() { return kept }
        do {
            return try await fromServer()
        } catch  where error.isUnreachable {
            guard saved, let kept = try await here() else { throw error }
            return kept
        }
    }

    /// Sends what waits; whether nothing waits now (the server can be asked directly).
    private func sendQueue(userID: UserID) async -> Bool {
        guard (try? await outbox.count(userID: userID)) != 0 else { return true }
        _ = await sync.send(userID: userID, claiming: nil)
        return (try? await outbox.count(userID: userID)) == 0
    }

    /// Grades here and queues the grade, then sends the queue; the server's refusal of it is
    /// thrown, once the card's course is saved again from the server.
    /// Returns when the write was kept (its operation's time).
    @discardableResult
    private func write(_ kind: OperationKind, settings: ReviewSettings, userID: UserID, at time: Date?) async throws(AppError) -> Date {
        let (operation, outcome) = try await outbox.record(kind, userID: userID, at: time, settings: settings)
        if case .refused(let error) = outcome { throw error }
        let sent = await sync.send(userID: userID, claiming: operation.id)
        guard let refusal = sent.refused.first(where: { $0.0.id == operation.id }) else { return operation.time.date }
        if let courseID = kind.courseID { await refresh.refresh(courseID, userID: userID) }
        throw refusal.1
    }

    private func card(_ ref: QuestionRef, userID: UserID) async throws(AppError) -> CardSchedule {
        guard let card = try await here.cards(userID: userID, courseID: ref.courseID).first(where: { $0.ref == ref }) else {
            throw .noSuchLesson(ref.courseID, ref.lesson)
        }
        return card.schedule
    }
}

/// The instants grades queued in this run were kept at, by the instant their screen gave, and
/// the settings the latest grade was given by (an undo is asked without them).
final class GradeTimes: Sendable {
    private let times = Mutex<[QuestionRef: (asked: Int64, kept: Date)]>([:])
    private let latest = Mutex<ReviewSettings>(.default)

    func use(_ settings: ReviewSettings) { latest.withLock { $0 = settings } }

    var settings: ReviewSettings { latest.withLock { $0 } }

    func remember(_ ref: QuestionRef, asked: Date, kept: Date) {
        times.withLock { $0[ref] = (Self.second(asked), kept) }
    }

    /// When the grade the screen gave `ref` at `asked` was kept (`asked` itself for one not
    /// queued here in this run).
    func kept(_ ref: QuestionRef, asked: Date) -> Date {
        times.withLock { times in
            guard let known = times[ref], known.asked == Self.second(asked) else { return asked }
            return known.kept
        }
    }

    private static func second(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
}
