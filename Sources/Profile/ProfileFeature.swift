import SharedKernel
import TerminalUI

/// The profile: the feature's one entry point. Sign-in and logout join it with issue 5's
/// second half; for now it shows and renames the signed-in learner.
@MainActor
public struct ProfileFeature {
    private let session: any SessionRepository
    private let enrollments: any EnrollmentRepository
    private let favourites: any FavouritesRepository
    private let profiles: any ProfileRepository

    public init(
        session: any SessionRepository,
        enrollments: any EnrollmentRepository,
        favourites: any FavouritesRepository,
        profiles: any ProfileRepository
    ) {
        self.session = session
        self.enrollments = enrollments
        self.favourites = favourites
        self.profiles = profiles
    }

    /// Tab 4's root. `onNameChanged` gets the renamed learner, e.g. for the header.
    public func makeProfileScreen(onNameChanged: @escaping @MainActor (User) -> Void) -> any Screen {
        let viewModel = ProfileViewModel(
            loadProfile: LoadProfileUseCase(session: session, enrollments: enrollments, favourites: favourites),
            updateName: UpdateProfileNameUseCase(profiles: profiles),
            onNameChanged: onNameChanged
        )
        return ProfileScreen(viewModel: viewModel)
    }
}
