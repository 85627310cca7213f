import AsyncHTTPClient
import EduGoAPI
import Foundation
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SharedKernel

// MARK: - EnrollmentRepository

extension RemoteStore: EnrollmentRepository {
    public func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        do {
            let enrollment = try await authorized(as: userID) { client in
                try await client.enroll(path: .init(courseId: courseID.rawValue)).created.body.json
            }
            return try checked(enrollment, userID: userID, courseID: courseID, holdingPlace: true)
        } catch {
            if case .api(409, let code, _, _) = error { throw try await refusal(code: code, courseID: courseID) }
            throw Self.appError(error, course: courseID)
        }
    }

    public func unenroll(userID: UserID, courseID: CourseID) async throws(AppError) {
        do {
            _ = try await authorized(as: userID) { client in try await client.unenroll(path: .init(courseId: courseID.rawValue)).noContent }
        } catch {
            throw Self.appError(error, course: courseID)
        }
    }

    public func setLesson(_ number: Int, done: Bool, userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        guard number >= 1 else { throw .noSuchLesson(courseID, number) }
        let lesson = Int64(number)
        do {
            let enrollment = try await authorized(as: userID) { client in
                if done {
                    try await client.markLessonDone(path: .init(courseId: courseID.rawValue, lesson: lesson)).ok.body.json
                } else {
                    try await client.markLessonNotDone(path: .init(courseId: courseID.rawValue, lesson: lesson)).ok.body.json
                }
            }
            return try checked(enrollment, userID: userID, courseID: courseID, holdingPlace: true)
        } catch {
            throw Self.appError(error, course: courseID, lesson: number)
        }
    }

    public func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        try await enrolledCourses(userID: userID, among: nil)
    }

    /// An enrollment in a course not asked about is garbage: connectivity.
    public func enrolledCourses(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [EnrolledCourse] {
        guard !ids.isEmpty else { return [] }
        return try await enrolledCourses(userID: userID, among: Optional(ids))
    }

    private func enrolledCourses(userID: UserID, among ids: [CourseID]?) async throws(AppError) -> [EnrolledCourse] {
        let asked = ids.map { Array(Set($0.map(\.rawValue))) }
        let list: Components.Schemas.EnrollmentList
        do {
            list = try await authorized(as: userID) { client in
                try await client.listEnrollments(query: .init(courseIds: asked)).ok.body.json
            }
        } catch {
            throw error.appError
        }
        if let asked, let stray = list.enrollments.first(where: { !asked.contains($0.course.id) }) {
            throw refusedAnswer("an enrollment in \(stray.course.id) where \(asked.count) other courses were asked about")
        }
        return list.enrollments.compactMap { item -> EnrolledCourse? in
            guard let course = accepted(item.course) else { return nil }
            do throws(RefusedCourse) {
                return EnrolledCourse(course: course, enrollment: try Enrollment.checked(item, userID: userID))
            } catch {
                log(error)
                return nil
            }
        }
    }

    /// 404 `not_enrolled` is none; the answer must be about this course, its course within
    /// the import's limits (else the server answered garbage: connectivity).
    public func enrolledCourse(userID: UserID, courseID: CourseID) async throws(AppError) -> EnrolledCourse? {
        let item: Components.Schemas.Enrollment
        do {
            item = try await authorized(as: userID) { client in
                try await client.getEnrollment(path: .init(courseId: courseID.rawValue)).ok.body.json
            }
        } catch {
            if case .api(404, .notEnrolled, _, _) = error { return nil }
            throw Self.appError(error, course: courseID)
        }
        let course: Course
        do {
            course = try Course.checked(item.course)
        } catch {
            throw refused(error)
        }
        do {
            return EnrolledCourse(course: course, enrollment: try checked(item, userID: userID, courseID: courseID))
        } catch {
            throw error.appError
        }
    }

    /// The refusal as the local store words it, which names the course (or its prerequisite).
    private func refusal(code: ErrorCode?, courseID: CourseID) async throws(AppError) -> AppError {
        let course = try await self.course(id: courseID)
        switch code {
        case .alreadyEnrolled: return .refused(.alreadyEnrolled(title: course.title))
        case .courseFull: return .refused(.courseFull(title: course.title))
        case .courseInactive: return .refused(.courseInactive(title: course.title))
        case .prerequisiteMissing:
            guard let prerequisite = course.prerequisiteID else { return .refused(.courseInactive(title: course.title)) }
            return .refused(.prerequisiteNotCompleted(prerequisiteTitle: try await self.course(id: prerequisite).title))
        default: return .storage(.saving, detail: "refused: \(code?.rawValue ?? "unknown code")")
        }
    }
}
