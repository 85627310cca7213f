import SharedKernel

/// A `CourseRepository` that applies the development conditions before each call.
struct ConditionedCourseRepository: CourseRepository {
    let base: any CourseRepository
    let conditions: DevelopmentConditions

    func allCourses() async throws(AppError) -> [Course] {
        try await conditions.beforeDataCall()
        return try await base.allCourses()
    }

    func course(id: CourseID) async throws(AppError) -> Course {
        try await conditions.beforeDataCall()
        return try await base.course(id: id)
    }
}

/// A `SessionRepository` that applies the development conditions before each call.
struct ConditionedSessionRepository: SessionRepository {
    let base: any SessionRepository
    let conditions: DevelopmentConditions

    func currentUser() async throws(AppError) -> User? {
        try await conditions.beforeDataCall()
        return try await base.currentUser()
    }
}
