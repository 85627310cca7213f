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

extension Course {
    init(_ course: Components.Schemas.Course) {
        self.init(
            id: CourseID(course.id),
            title: course.title,
            instructor: course.instructor,
            category: course.category,
            level: CourseLevel(rawValue: course.level.rawValue) ?? .beginner,
            durationMinutes: Int(clamping: course.durationMinutes),
            // The API gives a decimal amount; the domain counts cents.
            price: Price(minorUnits: Int((course.price * 100).rounded()), currency: course.currency),
            capacity: course.capacity.map { Int(clamping: $0) },
            enrolledCount: Int(clamping: course.enrolledCount),
            tags: course.tags,
            prerequisiteID: course.prerequisiteId.map { CourseID($0) },
            isActive: course.active,
            description: course.description,
            lessonCount: Int(clamping: course.lessonCount)
        )
    }
}

extension Enrollment {
    /// The API names an enrollment by its learner and course; it has no id of its own.
    init(_ enrollment: Components.Schemas.Enrollment, userID: UserID) {
        self.init(
            id: EnrollmentID(0), userID: userID, courseID: CourseID(enrollment.course.id), enrolledAt: enrollment.enrolledAt,
            status: enrollment.status == .completed ? .completed : .active,
            lessonsDone: Set(enrollment.lessonsDone.map { Int(clamping: $0) }), completedAt: enrollment.completedAt
        )
    }
}

/// Catalog keys on the wire: the server's opaque text, which for EduGo servers is the key's
/// decimal digits.
enum CatalogKeyText {
    static func encode(_ key: CatalogKey) -> String { String(key.rawValue) }

    static func decode(_ text: String) throws(RemoteFailure) -> CatalogKey {
        guard let value = Int64(text) else { throw .unreachable(detail: "a page key that is not the server's: \(text.prefix(40))") }
        return CatalogKey(value)
    }

    /// Past every course: `before` it is the last page (the API has no "last" of its own).
    static let end = "999999999999999999"
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
