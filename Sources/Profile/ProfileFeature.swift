import SharedKernel
import TerminalUI

/// Sign-in, account creation and the profile: the feature's one entry point. Everything
/// that leaves it (signed in, renamed, logged out) goes through closures.
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

    /// Tab 4's root. `onNameChanged` gets the renamed learner (for the header);
    /// `onLoggedOut` is called once the session has ended.
    public func makeProfileScreen(
        onNameChanged: @escaping @MainActor (User) -> Void,
        onLoggedOut: @escaping @MainActor () -> Void
    ) -> any Screen {
        let viewModel = ProfileViewModel(
            loadProfile: LoadProfileUseCase(session: session, enrollments: enrollments, favourites: favourites),
            updateName: UpdateProfileNameUseCase(profiles: profiles),
            signOut: SignOutUseCase(sessions: session),
            onNameChanged: onNameChanged,
            onLoggedOut: onLoggedOut
        )
        return ProfileScreen(viewModel: viewModel)
    }

    /// The sign-in screen (Ctrl-N switches to creating an account). `onSignedIn` gets the
    /// learner once their session has started.
    public func makeLoginScreen(onSignedIn: @escaping @MainActor (User) -> Void) -> any Screen {
        LoginScreen(viewModel: LoginViewModel(
            signIn: SignInUseCase(sessions: session),
            createAccount: CreateAccountUseCase(sessions: session),
            onSignedIn: onSignedIn
        ))
    }
}
