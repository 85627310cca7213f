import SharedKernel

/// What the Profile tab shows.
struct ProfileSummary: Hashable, Sendable {
    var user: User
    var enrolledCount: Int
    var favouritesCount: Int
}

/// The signed-in learner with their course and favourite counts.
struct LoadProfileUseCase: Sendable {
    let session: any SessionRepository
    let enrollments: any EnrollmentRepository
    let favourites: any FavouritesRepository

    func execute() async throws(AppError) -> ProfileSummary {
        guard let user = try await session.currentUser() else { throw .notSignedIn }
        return ProfileSummary(
            user: user,
            enrolledCount: try await enrollments.enrolledCourses(userID: user.id).count,
            favouritesCount: try await favourites.favouriteIDs(userID: user.id).count
        )
    }
}

/// Renames the learner by SPEC's rules; a refused name writes nothing.
struct UpdateProfileNameUseCase: Sendable {
    let profiles: any ProfileRepository

    func execute(userID: UserID, name raw: String) async throws(AppError) -> User {
        switch ProfileName.validate(raw) {
        case .failure(let rejection): throw .invalidName(rejection)
        case .success(let name): return try await profiles.updateName(userID: userID, to: name)
        }
    }
}
