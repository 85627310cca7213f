import EduGoAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import SharedKernel

/// The API's DTOs as domain values: the only place the two meet on the client side.
extension User {
    init(_ user: Components.Schemas.User) {
        self.init(
            id: UserID(user.id), name: user.name, email: user.email,
            role: UserRole(rawValue: user.role.rawValue) ?? .learner, memberSince: user.memberSince
        )
    }
}

/// A course the server sent that is outside the import's limits (`CourseLimits`): refused
/// whole, never turned into a plausible value. `problem` names the field and its value.
struct RefusedCourse: Error, Sendable, CustomStringConvertible {
    /// The id as the server gave it, cut to a length a log line can hold.
    let id: String
    let problem: String

    init(id: String, problem: String) {
        self.id = String(id.prefix(80))
        self.problem = problem
    }

    var description: String { "course \(id.debugDescription): \(problem)" }
}

extension Course {
    /// The server's course as the app's, if it passes the same limits as an import. The price
    /// is checked while it is still a `Double`, and every integer converted exactly, so no
    /// number, however large, can trap here.
    static func checked(_ course: Components.Schemas.Course) throws(RefusedCourse) -> Course {
        guard CourseLimits.isValidPrice(course.price) else {
            throw RefusedCourse(id: course.id, problem: "price \(course.price) is out of range")
        }
        let pastIntegers = RefusedCourse(id: course.id, problem: "a count past this machine's integers")
        guard let duration = Int(exactly: course.durationMinutes), let enrolled = Int(exactly: course.enrolledCount),
            let lessons = Int(exactly: course.lessonCount)
        else { throw pastIntegers }
        // No capacity is a course without a limit; a capacity must be a number like the rest.
        var capacity: Int?
        if let limit = course.capacity {
            guard let exact = Int(exactly: limit) else { throw pastIntegers }
            capacity = exact
        }
        let mapped = Course(
            id: CourseID(course.id),
            title: course.title,
            instructor: course.instructor,
            category: course.category,
            level: CourseLevel(rawValue: course.level.rawValue) ?? .beginner,
            durationMinutes: duration,
            // The API gives a decimal amount; the domain counts cents (exact: the price is in range).
            price: Price(minorUnits: Int((course.price * 100).rounded()), currency: course.currency),
            capacity: capacity,
            enrolledCount: enrolled,
            tags: course.tags,
            prerequisiteID: course.prerequisiteId.map { CourseID($0) },
            isActive: course.active,
            description: course.description,
            lessonCount: lessons
        )
        if let problem = CourseLimits.problem(in: mapped) ?? CourseLimits.textProblem(in: mapped) {
            throw RefusedCourse(id: course.id, problem: problem)
        }
        return mapped
    }
}

extension Syllabus {
    /// The server's course with its lessons, if both pass the import's limits (1 to 200
    /// lessons, each of `CourseLimits.minutes`, with 0 to 20 questions).
    static func checked(_ detail: Components.Schemas.CourseDetail) throws(RefusedCourse) -> Syllabus {
        let course = try Course.checked(detail.value1)
        var lessons: [Lesson] = []
        for (index, lesson) in detail.value2.lessons.enumerated() {
            guard let minutes = Int(exactly: lesson.minutes) else {
                throw RefusedCourse(id: course.id.rawValue, problem: "lessons[\(index)].minutes \(lesson.minutes) is out of range")
            }
            guard CourseLimits.saysSomething(lesson.title) else {
                throw RefusedCourse(
                    id: course.id.rawValue, problem: "lessons[\(index)].title says nothing once control characters are removed")
            }
            // Left out by a server before lessons had questions: none.
            guard let questions = Int(exactly: lesson.questionCount ?? 0), ContentLimits.questions.contains(questions) else {
                throw RefusedCourse(
                    id: course.id.rawValue, problem: "lessons[\(index)].question_count \(lesson.questionCount ?? 0) is out of range")
            }
            lessons.append(Lesson(title: lesson.title, minutes: minutes, questionCount: questions))
        }
        let syllabus = Syllabus(course: course, lessons: lessons)
        if let problem = CourseLimits.problem(in: syllabus) { throw RefusedCourse(id: course.id.rawValue, problem: problem) }
        // A course that says it has 3 lessons and lists 8 contradicts itself: neither is shown.
        guard lessons.count == course.lessonCount else {
            throw RefusedCourse(
                id: course.id.rawValue, problem: "lesson_count \(course.lessonCount) disagrees with its \(lessons.count) lessons")
        }
        return syllabus
    }
}

extension Enrollment {
    /// The API names an enrollment by its learner and course; it has no id of its own. Its
    /// lesson numbers are those a syllabus can have (1 to 200), and its status agrees with its
    /// date (completed, and dropped as the list keeps it, have one), or the enrollment is
    /// refused (its course is checked by whoever keeps it: `Course.checked`). A lesson done
    /// past its course's `lesson_count` contradicts the course: refused too, never shown as
    /// more than 100 %.
    static func checked(_ enrollment: Components.Schemas.Enrollment, userID: UserID) throws(RefusedCourse) -> Enrollment {
        var done: Set<Int> = []
        for number in enrollment.lessonsDone {
            guard let lesson = Int(exactly: number), CourseLimits.lessons.contains(lesson) else {
                throw RefusedCourse(id: enrollment.course.id, problem: "lessons_done \(number) is out of range")
            }
            guard number <= enrollment.course.lessonCount else {
                throw RefusedCourse(
                    id: enrollment.course.id,
                    problem: "lessons_done \(number) is past the course's lesson_count \(enrollment.course.lessonCount)")
            }
            done.insert(lesson)
        }
        let status: EnrollmentStatus =
            switch enrollment.status {
            case .active: .active
            case .completed: .completed
            case .dropped: .dropped
            }
        let mapped = Enrollment(
            id: EnrollmentID(0), userID: userID, courseID: CourseID(enrollment.course.id), enrolledAt: enrollment.enrolledAt,
            status: status, lessonsDone: done, completedAt: enrollment.completedAt, lastActiveAt: enrollment.lastActiveAt
        )
        guard status != .completed || mapped.wasCompleted else {
            throw RefusedCourse(id: enrollment.course.id, problem: "status completed without completed_at")
        }
        guard mapped.isListed else { throw RefusedCourse(id: enrollment.course.id, problem: "status dropped without completed_at") }
        return mapped
    }
}

/// Asks for the server's messages in the UI's language (`Accept-Language`).
struct LanguageMiddleware: ClientMiddleware {
    let code: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.acceptLanguage] = code
        return try await next(request, body, baseURL)
    }
}

/// Puts the access token of the call in progress (`Bearer.token`) into its header.
struct BearerMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = Bearer.token { request.headerFields[.authorization] = "Bearer \(token)" }
        return try await next(request, body, baseURL)
    }
}
