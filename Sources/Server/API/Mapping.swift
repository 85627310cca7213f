import EduGoAPI
import Foundation
import HTTPTypes
import SharedKernel

/// Domain values as the API's DTOs: the only place the two meet on the server side.
extension Components.Schemas.Course {
    init(_ course: Course) {
        self.init(
            id: course.id.rawValue,
            title: course.title,
            instructor: course.instructor,
            category: course.category,
            level: Components.Schemas.Course.LevelPayload(rawValue: course.level.rawValue) ?? .beginner,
            durationMinutes: Int64(course.durationMinutes),
            price: Double(course.price.minorUnits) / 100,
            currency: course.price.currency,
            capacity: course.capacity.map(Int64.init),
            enrolledCount: Int64(course.enrolledCount),
            tags: course.tags,
            prerequisiteId: course.prerequisiteID?.rawValue,
            active: course.isActive,
            description: course.description,
            lessonCount: Int64(course.lessonCount)
        )
    }
}

extension Components.Schemas.User {
    init(_ user: User) {
        self.init(
            id: user.id.rawValue,
            name: user.name,
            email: user.email,
            role: Components.Schemas.User.RolePayload(rawValue: user.role.rawValue) ?? .learner,
            memberSince: user.memberSince
        )
    }
}

extension Components.Schemas.Enrollment {
    init(course: Course, enrollment: Enrollment) {
        self.init(
            course: Components.Schemas.Course(course),
            status: StatusPayload(enrollment.status),
            enrolledAt: enrollment.enrolledAt,
            lastActiveAt: enrollment.lastActiveAt,
            completedAt: enrollment.completedAt,
            lessonsDone: enrollment.lessonsDone.sorted().map(Int64.init)
        )
    }
}

extension Components.Schemas.Enrollment.StatusPayload {
    init(_ status: EnrollmentStatus) {
        switch status {
        case .active: self = .active
        case .completed: self = .completed
        case .dropped: self = .dropped
        }
    }
}

extension Components.Schemas.Session {
    init(_ tokens: IssuedTokens, user: User) {
        self.init(
            accessToken: tokens.accessToken,
            refreshToken: tokens.refreshToken,
            expiresIn: Int64(tokens.expiresIn),
            user: Components.Schemas.User(user)
        )
    }
}

extension Components.Schemas.LessonContent {
    init(_ content: LessonContent) {
        self.init(body: content.body, questions: content.questions.map(Components.Schemas.LessonQuestion.init))
    }
}

extension Components.Schemas.LessonQuestion {
    /// A question before it is answered: how many choices are right, not which (SPEC).
    init(_ question: Question) {
        self.init(prompt: question.prompt, choices: question.choices, choose: Int64(question.answerCount))
    }
}

extension Components.Schemas.Question {
    init(_ question: Question) {
        self.init(
            prompt: question.prompt, choices: question.choices, correct: question.correct.sorted().map(Int64.init),
            explanation: question.explanation)
    }
}

extension Components.Schemas.Answer {
    init(_ answer: Answer) {
        self.init(
            correct: answer.correct.sorted().map(Int64.init), explanation: answer.explanation, courseId: answer.ref.courseID.rawValue,
            lesson: Int64(answer.ref.lesson), question: Int64(answer.ref.question), chosen: answer.chosen.sorted().map(Int64.init),
            isRight: answer.isRight)
    }
}

extension Components.Schemas.CardSchedule {
    init(_ schedule: CardSchedule) {
        let card = schedule.card
        self.init(
            state: StatePayload(card.state), step: card.step.map(Int64.init), stability: card.stability, difficulty: card.difficulty,
            due: WireInstant.told(card.due), lastReview: card.lastReview.map(WireInstant.told), reviews: Int64(schedule.reviews))
    }
}

extension Components.Schemas.CardSchedule.StatePayload {
    init(_ state: FSRSCardState) {
        switch state {
        case .learning: self = .learning
        case .review: self = .review
        case .relearning: self = .relearning
        }
    }
}

extension Components.Schemas.ReviewDeck {
    init(_ deck: ReviewDeck) {
        self.init(
            cards: deck.cards.map(Components.Schemas.ReviewCard.init), newCount: Int64(deck.newCount),
            learningCount: Int64(deck.learningCount), dueCount: Int64(deck.dueCount), comingBack: deck.comingBack.map(WireInstant.told))
    }
}

/// An instant as the API tells it: whole seconds (RFC 3339 has no fraction here), within the
/// years 1–9999 that it writes in four digits (`CardSchedule.instants`). The rules keep a card
/// within them; one a store holds outside them is told at the nearest end.
enum WireInstant {
    static func told(_ date: Date) -> Date {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let range = Double(CardSchedule.instants.lowerBound)...Double(CardSchedule.instants.upperBound)
        return Date(timeIntervalSince1970: min(max(seconds, range.lowerBound), range.upperBound))
    }
}

extension Components.Schemas.ReviewCard {
    init(_ card: ReviewCard) {
        self.init(
            courseId: card.ref.courseID.rawValue, lesson: Int64(card.ref.lesson), question: Int64(card.ref.question),
            courseTitle: card.courseTitle, lessonTitle: card.lessonTitle, content: .init(card.question),
            schedule: .init(card.schedule), intervals: .init(card.intervals))
    }
}

extension Components.Schemas.GradeIntervals {
    /// Whole seconds, never negative (a grade's preview is after the deck's `at`).
    init(_ intervals: [ReviewGrade: TimeInterval]) {
        // A damaged row's NaN or infinity is 0, never a trap.
        let seconds = { (grade: ReviewGrade) in Int64(exactly: max(0, (intervals[grade] ?? 0).rounded(.down))) ?? 0 }
        self.init(again: seconds(.again), hard: seconds(.hard), good: seconds(.good), easy: seconds(.easy))
    }
}

extension Components.Schemas.MemoryPicture {
    init(_ picture: MemoryPicture) {
        self.init(
            forecast: picture.forecast.map(Int64.init), recalled: Int64(picture.recalled), reviewed: Int64(picture.reviewed),
            reviewsToday: Int64(picture.reviewsToday))
    }
}

/// The API's catalog keys (`CatalogKey.pageKey`), checked on the way in.
enum CatalogKeyText {
    static func decode(_ text: String, sort: CatalogSort) throws(APIFailure) -> CatalogKey {
        guard let key = CatalogKey(pageKey: text, sort: sort) else {
            throw .invalidRequest(.badRequest, "This page key is not one the catalog gave in this order.")
        }
        return key
    }
}
