import Catalog
import Courses
import Favourites
import Profile
import SharedKernel
import TerminalUI

/// Turns the coordinator's destinations into screens. Tab roots live as long as the app, so
/// a list keeps its selection; pushed screens live while they are on the stack.
@MainActor
final class ScreenRouter {
    private let coordinator: AppCoordinator
    private let catalog: CatalogFeature
    private let courses: CoursesFeature
    private let favourites: FavouritesFeature
    private let profile: ProfileFeature
    /// Told when the learner signs in, renames themself or logs out; the shell.
    weak var sessionEvents: (any SessionEvents)?
    private var login: (any Screen)?
    private var roots: [AppTab: any Screen] = [:]
    private var stackTab: AppTab
    private var stack: [(destination: AppDestination, screen: any Screen)] = []

    /// Builds the features on the ports and wires their closures to each other: enrolling and
    /// favouriting from the catalog go to the Courses and Favourites features.
    convenience init(coordinator: AppCoordinator, ports: AppPorts) {
        let courses = CoursesFeature(session: ports.sessions, courses: ports.courses, enrollments: ports.enrollments)
        let favourites = FavouritesFeature(session: ports.sessions, favourites: ports.favourites)
        let catalog = CatalogFeature(
            courses: ports.courses, enrollments: ports.enrollments, favourites: ports.favourites, session: ports.sessions,
            onEnrollRequested: { id in await courses.enroll(courseID: id) },
            onToggleFavourite: { id in await favourites.toggle(courseID: id) }
        )
        let profile = ProfileFeature(
            session: ports.sessions, enrollments: ports.enrollments, favourites: ports.favourites, profiles: ports.profiles
        )
        self.init(coordinator: coordinator, catalog: catalog, courses: courses, favourites: favourites, profile: profile)
    }

    init(
        coordinator: AppCoordinator,
        catalog: CatalogFeature,
        courses: CoursesFeature,
        favourites: FavouritesFeature,
        profile: ProfileFeature
    ) {
        self.coordinator = coordinator
        self.catalog = catalog
        self.courses = courses
        self.favourites = favourites
        self.profile = profile
        self.stackTab = coordinator.tab
    }

    /// The screen on top of the current tab.
    var currentScreen: any Screen {
        syncStack()
        return stack.last?.screen ?? root(for: coordinator.tab)
    }

    private func root(for tab: AppTab) -> any Screen {
        if let screen = roots[tab] { return screen }
        let screen: any Screen = switch tab {
        case .catalog:
            catalog.makeListScreen { [coordinator] id in coordinator.push(.courseDetail(id)) }
        case .myCourses:
            courses.makeMyCoursesScreen { [coordinator] id in coordinator.push(.courseDetail(id)) }
        case .favourites:
            favourites.makeFavouritesScreen { [coordinator] id in coordinator.push(.courseDetail(id)) }
        case .profile:
            profile.makeProfileScreen(
                onNameChanged: { [weak self] user in self?.sessionEvents?.nameChanged(to: user) },
                onLoggedOut: { [weak self] in self?.sessionEvents?.loggedOut() }
            )
        }
        roots[tab] = screen
        return screen
    }

    /// The sign-in screen, kept while nobody is signed in.
    var loginScreen: any Screen {
        if let login { return login }
        let screen = profile.makeLoginScreen { [weak self] user in self?.sessionEvents?.signedIn(as: user) }
        login = screen
        return screen
    }

    /// Forgets every screen and its view-model, so nothing of the previous learner can be
    /// reached again; the next screens load anew.
    func reset() {
        roots.removeAll()
        stack.removeAll()
        login = nil
    }

    private func makeScreen(for destination: AppDestination) -> any Screen {
        switch destination {
        case .courseDetail(let id):
            catalog.makeDetailScreen(courseID: id) { [coordinator] in coordinator.pop() }
        }
    }

    /// Keeps the live screens matching the coordinator's path: reuses the common prefix,
    /// drops what was popped, creates what was pushed.
    private func syncStack() {
        if stackTab != coordinator.tab {
            stack.removeAll()
            stackTab = coordinator.tab
        }
        let path = coordinator.path
        var common = 0
        while common < min(path.count, stack.count), stack[common].destination == path[common] {
            common += 1
        }
        stack.removeSubrange(common...)
        for destination in path[common...] {
            stack.append((destination, makeScreen(for: destination)))
        }
    }
}

/// What the router reports about the session; the shell acts on it.
@MainActor
protocol SessionEvents: AnyObject {
    func signedIn(as user: User)
    func nameChanged(to user: User)
    func loggedOut()
}
