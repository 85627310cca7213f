import SharedKernel

/// A `CourseRepository` that applies the development conditions before each call.
struct ConditionedCourseRepository: CourseRepository {
    let base: any CourseRepository
    let conditions: DevelopmentConditions

    func course(id: CourseID) async throws(AppError) -> Course {
        try await conditions.beforeDataCall()
        return try await base.course(id: id)
    }

    func page(matching query: String, at position: CatalogPosition, limit: Int) async throws(AppError) -> [CatalogRow] {
        try await conditions.beforeDataCall()
        return try await base.page(matching: query, at: position, limit: limit)
    }

    func count(matching query: String) async throws(AppError) -> CatalogCount {
        try await conditions.beforeDataCall()
        return try await base.count(matching: query)
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

    func signIn(email: String, password: String) async throws(AppError) -> User {
        try await conditions.beforeDataCall()
        return try await base.signIn(email: email, password: password)
    }

    func createAccount(name: String, email: String, password: String) async throws(AppError) -> User {
        try await conditions.beforeDataCall()
        return try await base.createAccount(name: name, email: email, password: password)
    }

    func signOut() async throws(AppError) {
        try await conditions.beforeDataCall()
        try await base.signOut()
    }
}

/// An `EnrollmentRepository` that applies the development conditions before each call.
struct ConditionedEnrollmentRepository: EnrollmentRepository {
    let base: any EnrollmentRepository
    let conditions: DevelopmentConditions

    func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        try await conditions.beforeDataCall()
        return try await base.enroll(userID: userID, courseID: courseID)
    }

    func unenroll(userID: UserID, courseID: CourseID) async throws(AppError) {
        try await conditions.beforeDataCall()
        try await base.unenroll(userID: userID, courseID: courseID)
    }

    func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        try await conditions.beforeDataCall()
        return try await base.enrolledCourses(userID: userID)
    }

    func enrollment(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment? {
        try await conditions.beforeDataCall()
        return try await base.enrollment(userID: userID, courseID: courseID)
    }
}

/// A `FavouritesRepository` that applies the development conditions before each call.
struct ConditionedFavouritesRepository: FavouritesRepository {
    let base: any FavouritesRepository
    let conditions: DevelopmentConditions

    func toggle(userID: UserID, courseID: CourseID) async throws(AppError) -> Bool {
        try await conditions.beforeDataCall()
        return try await base.toggle(userID: userID, courseID: courseID)
    }

    func favourites(userID: UserID) async throws(AppError) -> [Course] {
        try await conditions.beforeDataCall()
        return try await base.favourites(userID: userID)
    }

    func favouriteIDs(userID: UserID) async throws(AppError) -> Set<CourseID> {
        try await conditions.beforeDataCall()
        return try await base.favouriteIDs(userID: userID)
    }
}

extension AppPorts {
    /// Every port behind the development conditions.
    func withConditions(_ conditions: DevelopmentConditions) -> AppPorts {
        AppPorts(
            courses: ConditionedCourseRepository(base: courses, conditions: conditions),
            enrollments: ConditionedEnrollmentRepository(base: enrollments, conditions: conditions),
            favourites: ConditionedFavouritesRepository(base: favourites, conditions: conditions),
            profiles: ConditionedProfileRepository(base: profiles, conditions: conditions),
            // Signing in is local state, not the remote catalog: --offline leaves it working,
            // so the catalog's error states can be reached; --latency still applies.
            sessions: ConditionedSessionRepository(base: sessions, conditions: DevelopmentConditions(latency: conditions.latency))
        )
    }
}

/// A `ProfileRepository` that applies the development conditions before each call.
struct ConditionedProfileRepository: ProfileRepository {
    let base: any ProfileRepository
    let conditions: DevelopmentConditions

    func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        try await conditions.beforeDataCall()
        return try await base.updateName(userID: userID, to: name)
    }
}
