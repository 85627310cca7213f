import Foundation
import SharedKernel

// MARK: - LearningRepository, by the SharedKernel's LearningRules over this store

extension InMemoryStore {
    public func lessonContent(courseID: CourseID, lesson: Int) async throws(AppError) -> LessonContent {
        try await record(.lessonContent(courseID, lesson))
        guard let course = storedCourse(courseID) else { throw .courseNotFound(courseID) }
        guard (1...max(1, course.lessonCount)).contains(lesson) else { throw .noSuchLesson(courseID, lesson) }
        let list = storedLessons(courseID) ?? []
        return list.indices.contains(lesson - 1) ? list[lesson - 1].content ?? .empty : .empty
    }

    public func answers(userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer] {
        try await record(.answers(userID, courseID))
        return (storedAnswers[userID] ?? [:]).values.map(\.answer).filter { $0.ref.courseID == courseID }
            .sorted { ($0.ref.lesson, $0.ref.question) < ($1.ref.lesson, $1.ref.question) }
    }

    public func cards(userID: UserID, courseID: CourseID) async throws(AppError) -> [CourseCard] {
        try await record(.cards(userID, courseID))
        return (storedAnswers[userID] ?? [:]).filter { $0.key.courseID == courseID }.map {
            CourseCard(ref: $0.key, schedule: $0.value.card)
        }
        .sorted { ($0.ref.lesson, $0.ref.question) < ($1.ref.lesson, $1.ref.question) }
    }

    public func answer(_ chosen: Set<Int>, to ref: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> Answer
    {
        try await record(.answer(chosen, ref, userID, time))
        let questions = (storedLessons(ref.courseID) ?? []).dropFirst(ref.lesson - 1).first?.content?.questions ?? []
        let decided = try LearningRules.answer(
            chosen, to: ref, question: ref.lesson >= 1 && questions.indices.contains(ref.question) ? questions[ref.question] : nil,
            holdsPlace: storedEnrollment(userID, ref.courseID)?.holdsPlace ?? false, existing: storedAnswers[userID]?[ref]?.answer,
            userID: userID, time: time, settings: settings)
        if let card = decided.newCard {
            storedAnswers[userID, default: [:]][ref] = (decided.answer, card, time.day)
            answerTimes[userID, default: [:]][ref] = time.now
            storedEnrollmentIndex(userID, ref.courseID).map { enrollments[$0].lastActiveAt = now() }
            note(.learning(userID, ref.courseID))
        }
        return decided.answer
    }

    public func reviewDeck(userID: UserID, at time: StudyTime, limit: Int, settings: ReviewSettings) async throws(AppError)
        -> ReviewDeck
    {
        try await record(.reviewDeck(userID, time))
        let stored = storedAnswers[userID] ?? [:]
        let cards = stored.filter { $0.value.card.isDue(at: time) }.compactMap { ref, stored -> ReviewCard? in
            guard let course = storedCourse(ref.courseID), let lessons = storedLessons(ref.courseID),
                lessons.indices.contains(ref.lesson - 1),
                let questions = lessons[ref.lesson - 1].content?.questions, questions.indices.contains(ref.question)
            else { return nil }
            return ReviewCard(
                ref: ref, courseTitle: course.title, lessonTitle: lessons[ref.lesson - 1].title, question: questions[ref.question],
                schedule: stored.card, intervals: settings.intervals(for: stored.card.card, at: time.now))
        }
        .sorted { a, b in
            (a.schedule.card.due, TextFolding.key(a.courseTitle), a.ref.courseID.rawValue, a.ref.lesson, a.ref.question)
                < (b.schedule.card.due, TextFolding.key(b.courseTitle), b.ref.courseID.rawValue, b.ref.lesson, b.ref.question)
        }
        return ReviewDeck(cards: Array(cards.prefix(max(0, limit))), counting: stored.values.map(\.card), at: time)
    }

    public func review(_ ref: QuestionRef, grade: ReviewGrade, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> CardSchedule
    {
        try await record(.review(ref, grade, userID, time))
        let card = storedAnswers[userID]?[ref]?.card
        let (next, log) = try LearningRules.review(card, grade: grade, ref: ref, userID: userID, time: time, settings: settings)
        storedAnswers[userID]?[ref]?.card = next
        reviewLog[userID, default: []].append(log)
        reviewDays[userID, default: []].insert(time.day)
        note(.learning(userID, nil))
        return next
    }

    public func undoReview(_ ref: QuestionRef, reviewedAt: Date, userID: UserID) async throws(AppError) -> CardSchedule {
        try await record(.undoReview(ref, reviewedAt, userID))
        let log = reviewLog[userID] ?? []
        let latest = log.lastIndex { $0.ref == ref }
        let before = try LearningRules.undo(latest: latest.map { log[$0] }, ref: ref, reviewedAt: reviewedAt)
        guard let latest else { throw .nothingToUndo(ref) }
        storedAnswers[userID]?[ref]?.card = before
        reviewLog[userID]?.remove(at: latest)
        note(.learning(userID, nil))
        return before
    }

    public func memory(userID: UserID, at time: StudyTime) async throws(AppError) -> MemoryPicture {
        try await record(.memory(userID, time))
        return MemoryPicture(
            schedules: (storedAnswers[userID] ?? [:]).values.map(\.card), log: reviewLog[userID] ?? [], at: time)
    }

    public func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit {
        try await record(.habit(userID, day))
        let lessonDays = (lessonDoneTimes[userID] ?? []).map { LearnerDay($0, secondsFromGMT: secondsFromGMT) }
        let answerDays = (storedAnswers[userID] ?? [:]).values.map(\.day)
        let active = Set(lessonDays + answerDays).union(reviewDays[userID] ?? [])
        let dayEnd = StudyTime.end(of: day, secondsFromGMT: secondsFromGMT)
        let due = (storedAnswers[userID] ?? [:]).values.filter { $0.card.card.due < dayEnd }.count
        return LearningHabit(
            streakDays: LearningHabit.streak(activeDays: active, today: day), dueCount: due, activeToday: active.contains(day))
    }
}
