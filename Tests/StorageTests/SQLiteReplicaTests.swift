import Foundation
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

/// Remote mode's replica: the server's word is taken only while no write waits, and what a
/// learner read stays readable.
@Suite("Replica: the server's word, and the writes waiting on it")
struct SQLiteReplicaTests {
    static let one = Course.fixture(id: "rep-1", title: "Replica One", lessonCount: 2)
    static let two = Course.fixture(id: "rep-2", title: "Replica Two")
    static let learner = User(
        id: UserID(41), name: "Rita Replica", email: "rita@example.org", role: .learner,
        memberSince: Date(timeIntervalSince1970: 1_700_000_000))

    private static func open(_ directory: TemporaryDirectory) throws -> AppDatabase {
        try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })
    }

    private static func enrolled(_ course: Course, done: Set<Int>) -> EnrolledCourse {
        var enrollment = Enrollment(
            id: EnrollmentID(900), userID: learner.id, courseID: course.id, enrolledAt: Date(timeIntervalSince1970: 1_790_000_000))
        enrollment.lessonsDone = done
        return EnrolledCourse(course: course, enrollment: enrollment)
    }

    @Test("the server's lists are taken whole, and a place no longer listed is given up with its marks kept")
    func adoptsLists() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        let replica = SQLiteReplica(database: database)
        try await replica.keep(user: Self.learner)
        #expect(try await !replica.holds(.favourites, userID: Self.learner.id))
        #expect(try await replica.adoptFavourites([Self.one, Self.two], userID: Self.learner.id))
        #expect(try await replica.adoptEnrollments([Self.enrolled(Self.one, done: [1])], userID: Self.learner.id))
        #expect(try await replica.holds(.favourites, userID: Self.learner.id))
        #expect(try await replica.holds(.enrollments, userID: Self.learner.id))

        let favourites = SQLiteFavouritesRepository(database: database)
        let enrollments = SQLiteEnrollmentRepository(database: database)
        #expect(try await favourites.favourites(userID: Self.learner.id).map(\.id) == ["rep-1", "rep-2"])
        #expect(try await enrollments.enrolledCourse(userID: Self.learner.id, courseID: "rep-1")?.enrollment.lessonsDone == [1])
        #expect(try await enrollments.enrolledCourse(userID: Self.learner.id, courseID: "rep-1")?.course.lessonCount == 2)

        // Some of them again: one favourite gone, the place given up elsewhere.
        #expect(try await replica.adoptFavourites([], among: ["rep-2"], userID: Self.learner.id))
        #expect(try await replica.adoptEnrollments([], among: ["rep-1"], userID: Self.learner.id))
        #expect(try await favourites.favourites(userID: Self.learner.id).map(\.id) == ["rep-1"])
        #expect(try await enrollments.enrolledCourses(userID: Self.learner.id).isEmpty)
        #expect(try await replica.hasEnrollment(userID: Self.learner.id, courseID: "rep-1"), "the row stays, as the server keeps progress")
        #expect(try await SQLiteProfileRepository(database: database).user(id: Self.learner.id).name == "Rita Replica")
    }

    @Test("while a write waits, the server's word changes nothing: the replica's rows are the newer")
    func waitingWriteWins() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        let replica = SQLiteReplica(database: database)
        let outbox = SQLiteOutbox(database: database)
        try await replica.keep(user: Self.learner)
        #expect(try await replica.adoptFavourites([Self.one], userID: Self.learner.id))
        _ = try await outbox.record(.favourite("rep-1", isFavourite: false), userID: Self.learner.id)
        _ = try await outbox.record(.name("Rita Offline"), userID: Self.learner.id)

        #expect(try await !replica.adoptFavourites([Self.one], userID: Self.learner.id))
        #expect(try await !replica.keep(user: Self.learner), "the waiting name stays")
        #expect(try await SQLiteFavouritesRepository(database: database).favourites(userID: Self.learner.id).isEmpty)
        #expect(try await SQLiteProfileRepository(database: database).user(id: Self.learner.id).name == "Rita Offline")

        try await outbox.acknowledge(try await outbox.pending(userID: Self.learner.id).map { ($0, .applied) })
        #expect(try await replica.adoptFavourites([Self.one], userID: Self.learner.id), "the queue is empty: the server's word again")
        #expect(try await replica.keep(user: Self.learner))
        #expect(try await SQLiteProfileRepository(database: database).user(id: Self.learner.id).name == "Rita Replica")
    }

    @Test("a lesson read stays readable; the course page again keeps it, a changed syllabus replaces it")
    func keepsLessons() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        let replica = SQLiteReplica(database: database)
        let lessons = [Lesson(title: "First", minutes: 10, questionCount: 1), Lesson(title: "Second", minutes: 12)]
        let content = LessonContent(
            body: "# First\nRead me offline.",
            questions: [Question(prompt: "Which?", choices: ["A", "B"], correct: [0], explanation: "A it is.")])
        #expect(try await !replica.keep(content, courseID: "rep-1", lesson: 1), "no title to hang it on yet")
        try await replica.keep(syllabus: Syllabus(course: Self.one, lessons: lessons))
        #expect(try await replica.keep(content, courseID: "rep-1", lesson: 1))
        try await replica.keep(syllabus: Syllabus(course: Self.one, lessons: lessons))
        try await replica.keep(courses: [Self.one])

        let learning = SQLiteLearningRepository(database: database)
        #expect(try await learning.lessonContent(courseID: "rep-1", lesson: 1) == content)
        #expect(try await SQLiteCourseRepository(database: database).syllabus(of: "rep-1").lessons.map(\.title) == ["First", "Second"])

        var changed = lessons
        changed[0].title = "First, rewritten"
        try await replica.keep(syllabus: Syllabus(course: Self.one, lessons: changed))
        #expect(try await learning.lessonContent(courseID: "rep-1", lesson: 1).body == nil, "the old text went with its lesson")
    }

    @Test("the server's answers reveal the kept questions' right choices, and its cards make the deck reviewed offline")
    func adoptsLearning() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        let replica = SQLiteReplica(database: database)
        try await replica.keep(user: Self.learner)
        let question = Question(prompt: "Which?", choices: ["A", "B"], correct: [1], explanation: "B it is.")
        try await replica.keep(
            syllabus: Syllabus(
                course: Self.one, lessons: [Lesson(title: "First", minutes: 10, questionCount: 1), Lesson(title: "Second", minutes: 5)]))
        #expect(try await replica.unsavedLessons(of: "rep-1") == [1, 2])
        // As a server serves it: the right choices only with the learner's answer.
        try await replica.keep(LessonContent(body: "Read.", questions: [question.unanswered]), courseID: "rep-1", lesson: 1)
        #expect(try await replica.unsavedLessons(of: "rep-1") == [2])

        let ref = QuestionRef(courseID: "rep-1", lesson: 1, question: 0)
        let time = StudyTime(noonOf: LearnerDay(iso: "2026-11-24")!, secondsFromGMT: 0)
        let answer = Answer(ref: ref, chosen: [0], to: question)
        let card = CourseCard(ref: ref, schedule: LearningRules.firstCard(of: answer, userID: Self.learner.id, time: time))
        #expect(try await replica.adoptLearning([answer], cards: [card], courseID: "rep-1", userID: Self.learner.id))
        let learning = SQLiteLearningRepository(database: database)
        #expect(try await learning.answers(userID: Self.learner.id, courseID: "rep-1") == [answer])
        #expect(try await learning.cards(userID: Self.learner.id, courseID: "rep-1") == [card])
        #expect(try await replica.hasCard(ref, userID: Self.learner.id))
        let deck = try await learning.reviewDeck(userID: Self.learner.id, at: time.adding(seconds: 86_400), limit: 10)
        #expect(deck.cards.map(\.question) == [question], "the deck offline shows the right choice and why")
        // The lesson read again online comes unanswered: what the answer revealed stays.
        try await replica.keep(LessonContent(body: "Read again.", questions: [question.unanswered]), courseID: "rep-1", lesson: 1)
        #expect(try await learning.lessonContent(courseID: "rep-1", lesson: 1).questions == [question])

        // A grade given here waits: the server's older word leaves the card as graded here.
        let outbox = SQLiteOutbox(database: database, now: { time.now.addingTimeInterval(86_400) })
        let (_, outcome) = try await outbox.record(.review(ref, grade: .good, secondsFromGMT: 0), userID: Self.learner.id)
        #expect(outcome == .applied)
        let graded = try await learning.cards(userID: Self.learner.id, courseID: "rep-1")
        #expect(graded.first?.schedule.reviews == 1)
        #expect(try await !replica.adoptLearning([answer], cards: [card], courseID: "rep-1", userID: Self.learner.id))
        #expect(try await learning.cards(userID: Self.learner.id, courseID: "rep-1") == graded)
        // Sent: the server's word read before the grade reached it is older than the card here.
        try await outbox.acknowledge(try await outbox.pending(userID: Self.learner.id).map { ($0, .applied) })
        #expect(try await replica.adoptLearning([answer], cards: [card], courseID: "rep-1", userID: Self.learner.id))
        #expect(try await learning.cards(userID: Self.learner.id, courseID: "rep-1") == graded, "the newer card stays")
    }

    @Test("an answer here that lost to another terminal's earlier one gives way to it, with its card, however recent its own")
    func losingAnswerGivesWay() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try Self.open(directory)
        let replica = SQLiteReplica(database: database)
        try await replica.keep(user: Self.learner)
        let question = Question(prompt: "Which?", choices: ["A", "B"], correct: [0], explanation: "A.")
        try await replica.keep(syllabus: Syllabus(course: Self.one, lessons: [Lesson(title: "First", minutes: 10, questionCount: 1)]))
        try await replica.keep(LessonContent(body: "Read.", questions: [question.unanswered]), courseID: "rep-1", lesson: 1)
        let ref = QuestionRef(courseID: "rep-1", lesson: 1, question: 0)
        let early = StudyTime(noonOf: LearnerDay(iso: "2026-11-24")!, secondsFromGMT: 0)
        // This terminal's answer (wrong), read back from the server once it applied it.
        let mine = Answer(ref: ref, chosen: [1], to: question)
        let myCard = CourseCard(
            ref: ref, schedule: LearningRules.firstCard(of: mine, userID: Self.learner.id, time: early.adding(seconds: 6)))
        #expect(try await replica.adoptLearning([mine], cards: [myCard], courseID: "rep-1", userID: Self.learner.id))
        // Another terminal's earlier answer (right) then replaced it on the server.
        let theirs = Answer(ref: ref, chosen: [0], to: question)
        let theirCard = CourseCard(ref: ref, schedule: LearningRules.firstCard(of: theirs, userID: Self.learner.id, time: early))
        #expect(try await replica.adoptLearning([theirs], cards: [theirCard], courseID: "rep-1", userID: Self.learner.id))
        let learning = SQLiteLearningRepository(database: database)
        #expect(try await learning.answers(userID: Self.learner.id, courseID: "rep-1") == [theirs])
        #expect(try await learning.cards(userID: Self.learner.id, courseID: "rep-1") == [theirCard])
    }
}
