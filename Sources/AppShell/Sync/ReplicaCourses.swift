import Foundation
import SharedKernel
import Storage

/// Remote mode's catalog and lessons: the server's, with each course it shows remembered
/// (`SeenCourses`), and each course page and lesson opened kept in the replica, which answers
/// them while the server cannot be reached.
struct ReplicaCourses: CourseRepository {
    let server: any CourseRepository
    let seen: SeenCourses
    let replica: SQLiteReplica
    let here: SQLiteCourseRepository

    func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError) -> [CatalogRow]
    {
        let rows = try await server.page(query, for: learner, at: position, limit: limit)
        seen.remember(rows.lazy.map(\.course))
        return rows
    }

    func count(_ query: CatalogQuery, for learner: UserID?) async throws(AppError) -> CatalogCount {
        try await server.count(query, for: learner)
    }

    func countedPage(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> CountedPage
    {
        let page = try await server.countedPage(query, for: learner, at: position, limit: limit)
        seen.remember(page.rows.lazy.map(\.course))
        return page
    }

    func course(id: CourseID) async throws(AppError) -> Course {
        do {
            let course = try await server.course(id: id)
            seen.remember(CollectionOfOne(course))
            return course
        } catch  where error.isUnreachable {
            guard let kept = try? await here.course(id: id) else { throw error }
            return kept
        }
    }

    func syllabus(of id: CourseID) async throws(AppError) -> Syllabus {
        do {
            let syllabus = try await server.syllabus(of: id)
            seen.remember(CollectionOfOne(syllabus.course))
            // A replica that cannot keep it leaves the page as the server gave it.
            try? await replica.keep(syllabus: syllabus)
            return syllabus
        } catch  where error.isUnreachable {
            // A course whose page was never read has no lessons here: no made-up syllabus.
            guard let kept = try? await here.syllabus(of: id), kept.lessons.count == kept.course.lessonCount else { throw error }
            return kept
        }
    }
}

/// Remote mode's lessons, answers and reviews: the server's, with each lesson read kept in the
/// replica for reading while the server cannot be reached. Answers and reviews need the
/// server (the right choices come with the server's answer).
struct ReplicaLearning: LearningRepository {
    let server: any LearningRepository
    /// For the lessons' titles a lesson's text hangs on, when the replica has none yet.
    let courses: ReplicaCourses
    let replica: SQLiteReplica
    let here: SQLiteLearningRepository

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
    private func keep(_ content: LessonContent, courseID: CourseID, lesson: Int) async {
        do {
            guard try await !replica.keep(content, courseID: courseID, lesson: lesson) else { return }
            _ = try await courses.syllabus(of: courseID)
            try await replica.keep(content, courseID: courseID, lesson: lesson)
        } catch {
            return
        }
    }

    func answers(userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer] {
        try await server.answers(userID: userID, courseID: courseID)
    }

    func answer(_ chosen: Set<Int>, to question: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> Answer
    {
        try await server.answer(chosen, to: question, userID: userID, at: time, settings: settings)
    }

    func reviewDeck(userID: UserID, at time: StudyTime, limit: Int, settings: ReviewSettings) async throws(AppError) -> ReviewDeck {
        try await server.reviewDeck(userID: userID, at: time, limit: limit, settings: settings)
    }

    func review(_ question: QuestionRef, grade: ReviewGrade, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> CardSchedule
    {
        try await server.review(question, grade: grade, userID: userID, at: time, settings: settings)
    }

    func undoReview(_ question: QuestionRef, reviewedAt: Date, userID: UserID) async throws(AppError) -> CardSchedule {
        try await server.undoReview(question, reviewedAt: reviewedAt, userID: userID)
    }

    func memory(userID: UserID, at time: StudyTime) async throws(AppError) -> MemoryPicture {
        try await server.memory(userID: userID, at: time)
    }

    func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit {
        try await server.habit(userID: userID, on: day, secondsFromGMT: secondsFromGMT)
    }
}
