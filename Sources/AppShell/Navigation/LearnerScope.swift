import Catalog
import Courses
import Favourites
import Foundation
import Observation
import Presentation
import Profile
import Review
import SharedKernel
import TerminalUI

/// Everything that belongs to one signed-in learner: the features built for their id, the
/// models that hold their enrollments and favourites, and the navigation with its screens.
/// Signing out closes it, so nothing of this learner can be reached again.
@MainActor
final class LearnerScope {
    let learner: UserID
    let courses: CoursesFeature
    let favourites: FavouritesFeature
    private let catalog: CatalogFeature
    private let profile: ProfileFeature
    private let review: ReviewFeature
    /// The scope owns the coordinator, which owns the screens: weak, so no cycle keeps a
    /// signed-out learner's screens alive.
    private(set) lazy var coordinator = AppCoordinator(
        makeRoot: { [weak self] tab in self?.makeRoot(tab) ?? ClosedScreen() },
        makeScreen: { [weak self] destination in self?.makeScreen(destination) ?? ClosedScreen() }
    )
    /// Work the scope starts itself (its lists read again): cancelled when it closes.
    private let tasks: OwnedTasks
    /// What the catalog's screens hear of the store's changes.
    private let catalogChanges = Notices<CatalogChange>()
    private let profileFreshness: ProfileFreshness
    /// The store's news of this learner, while the scope follows it.
    private let feed: (any ChangeFeed)?
    private var following: Task<Void, Never>?
    private let clock: ShellClock
    /// The learner's own news and the catalog's, each applied at its own pace.
    private(set) lazy var ownNews = NewsPacer(clock: clock) { [weak self] marks in self?.apply(marks) }
    private(set) lazy var catalogNews = NewsPacer(clock: clock) { [weak self] marks in self?.apply(marks) }
    /// The cards due today, for the header's status; read at the start and on news of
    /// answers and reviews.
    let status = LearnerStatus()
    private let readDue: @Sendable () async -> Int?

    /// Builds the features on the ports and wires their closures to each other: the
    /// catalog's marks and actions go to the Courses and Favourites features, which own them.
    /// `report` gets the outcome of every save, whichever screen made it (the footer's notice).
    init(
        user: User,
        ports: AppPorts,
        session: SessionState,
        layout: LayoutSettings = LayoutSettings(),
        clock: ShellClock = ShellClock(),
        report: @escaping @MainActor (StatusMessage) -> Void,
        onLoggedOut: @escaping @MainActor () -> Void,
        waitingWrites: @escaping @MainActor () -> Int = { 0 },
        savedSearch: @escaping @MainActor () -> Int? = { nil },
        offline: OfflineShelf? = nil
    ) {
        learner = user.id
        self.clock = clock
        let tasks = OwnedTasks()
        self.tasks = tasks
        feed = ports.changes
        let profileFreshness = ProfileFreshness(learner: user.id, profiles: ports.profiles, session: session, tasks: tasks)
        self.profileFreshness = profileFreshness
        let calendar = ports.calendar
        let habit: @Sendable () async -> LearningHabit? = { [learning = ports.learning, learner = user.id] in
            try? await learning.habit(userID: learner, on: calendar.today, secondsFromGMT: TimeZone.current.secondsFromGMT())
        }
        readDue = { await habit()?.dueCount }
        let courses = CoursesFeature(
            learner: user.id, enrollments: ports.enrollments, courses: ports.courses,
            learning: LessonAccess(repository: ports.learning, time: { calendar.studyTime }, settings: { layout.review }), report: report)
        let favourites = FavouritesFeature(learner: user.id, favourites: ports.favourites, report: report)
        self.courses = courses
        self.favourites = favourites
        let lists = OwnLists(courses: courses, favourites: favourites)
        catalog = CatalogFeature(
            courses: ports.courses,
            learner: lists.catalogLearner(id: user.id, learning: ports.learning, tasks: tasks),
            source: ports.server.map { .server(host: $0) } ?? .localDatabase, changes: catalogChanges, layout: layout,
            savedSearch: savedSearch)
        review = ReviewFeature(
            learner: user.id, learning: ports.learning, time: { calendar.studyTime }, settings: { layout.review }, report: report)
        profile = ProfileFeature(
            learner: ProfileLearner(
                user: { session.user ?? user },
                pendingName: { session.pendingName },
                prepareCounts: { await lists.prepare() },
                counts: { (courses.enrolledCount, favourites.count) },
                onNameSaving: { name in profileFreshness.nameSaving(name) },
                onUserChanged: { user in session.userChanged(user) },
                onLoggedOut: onLoggedOut,
                report: report,
                habit: habit,
                waitingWrites: waitingWrites,
                offline: offline
            ),
            profiles: ports.profiles,
            sessions: ports.sessions
        )
    }

    private func makeRoot(_ tab: AppTab) -> any Screen {
        let open: @MainActor (CourseID) -> Void = { [weak self] id in self?.coordinator.push(.courseDetail(id)) }
        return switch tab {
        case .catalog: catalog.makeListScreen(onCourseSelected: open)
        case .myCourses:
            courses.makeMyCoursesScreen(
                onCourseSelected: open, onOpenLesson: { [weak self] id, lesson in self?.coordinator.push(.lesson(id, lesson)) })
        case .favourites: favourites.makeFavouritesScreen(onCourseSelected: open)
        case .profile: profile.makeProfileScreen()
        case .review: review.makeReviewScreen()
        }
    }

    private func makeScreen(_ destination: AppDestination) -> any Screen {
        switch destination {
        case .courseDetail(let id):
            catalog.makeDetailScreen(
                courseID: id,
                onOpenCourse: { [weak self] id in self?.coordinator.push(.courseDetail(id)) },
                onOpenLesson: { [weak self] number in self?.coordinator.push(.lesson(id, number)) },
                onBack: { [weak self] in self?.coordinator.pop() }
            )
        case .lesson(let id, let number):
            courses.makeReaderScreen(
                courseID: id, lesson: number,
                // Another lesson takes this one's place: Esc still goes back to where the reader was opened.
                onOpenLesson: { [weak self] next in
                    self?.coordinator.pop()
                    self?.coordinator.push(.lesson(id, next))
                },
                onBack: { [weak self] in self?.coordinator.pop() })
        }
    }

    /// The learner's own lists read again: they come back after the server ended their
    /// session, and what it holds now may differ from what was shown.
    @discardableResult
    func readAgain() -> Task<Void, Never> {
        let lists = OwnLists(courses: courses, favourites: favourites)
        return tasks.run { await lists.readAgain(nil) }
    }

    // MARK: - The store's news

    /// Follows the store's news of this learner until `stopFollowing` or `close`: each change
    /// is read again where it shows, paced (`NewsPacer`): the learner's own news apart from
    /// the public catalog's, which a busy platform sends all the time.
    func follow() {
        refreshDue()
        guard following == nil, let feed else { return }
        let news = feed.news(for: learner)
        following = Task { [weak self] in
            for await item in news { self?.hear(item) }
        }
    }

    /// News from the feed, to the pace of its lane.
    func hear(_ news: ChangeNews) {
        let marks = StaleMarks(news, of: learner)
        ownNews.add(marks.learnerPart)
        catalogNews.add(marks.catalogPart)
    }

    /// The learner's counts for the header, as far as they are known.
    var counts: [LocalizedText] {
        var parts: [LocalizedText] = []
        if let enrolled = courses.enrolledCount { parts.append("\(enrolled) enrolled") }
        if let favourites = favourites.count { parts.append("\(favourites) ★") }
        if let due = status.due { parts.append("\(due) due") }
        return parts
    }

    /// Reads the cards due today again, for the status.
    private func refreshDue() {
        let (readDue, status) = (self.readDue, self.status)
        tasks.run {
            if let due = await readDue() { status.due = due }
        }
    }

    /// The learner's session ended (remote mode): no news until they are back.
    func stopFollowing() {
        following?.cancel()
        following = nil
        ownNews.stop()
        catalogNews.stop()
    }

    /// Routes news to the owners of what it names, at once (the paced path is `follow`'s).
    func apply(_ news: ChangeNews) {
        apply(StaleMarks(news, of: learner))
    }

    /// Routes what news marked stale to the owners of what it names: the learner's
    /// enrollments, favourites and profile to their models (the screens draw from those), the
    /// catalog's to its screens, in one notice. Each thing is read again once.
    func apply(_ marks: StaleMarks) {
        let (courses, favourites) = (self.courses, self.favourites)
        let everything = marks.isEverything
        if everything || marks.allEnrollments {
            tasks.run { await courses.readAgain() }
        } else {
            for id in marks.enrollments { tasks.run { await courses.storeChanged(id) } }
        }
        if everything || marks.allFavourites {
            tasks.run { await favourites.readAgain() }
        } else {
            for id in marks.favourites { tasks.run { await favourites.storeChanged(id) } }
        }
        if everything || marks.profile { profileFreshness.storeChanged() }
        // The catalog's marks stand for every course's (answers included): any lesson open
        // reads its answers again.
        if everything || marks.catalog {
            courses.answersChanged(nil)
        } else {
            for id in marks.answered { courses.answersChanged(id) }
        }
        if everything || marks.learning {
            review.learningChanged()
            profile.learningChanged()
            refreshDue()
        }
        let change = CatalogChange(
            everything: everything || marks.catalog, courses: marks.courses,
            marks: marks.allEnrollments || marks.allFavourites || !marks.enrollments.isEmpty || !marks.favourites.isEmpty,
            answers: marks.answered)
        if !change.isEmpty { catalogChanges.post(change) }
    }

    /// Waits until the work the scope started (its lists read again) has finished.
    func settle() async {
        repeat {
            await ownNews.settle()
            await catalogNews.settle()
            await tasks.settle()
        } while ownNews.isDue || catalogNews.isDue
    }

    /// Work the scope started is running (a screen's reading may have started some).
    var isBusy: Bool { tasks.isBusy }

    /// Stops every screen's work, and the scope's own.
    func close() {
        stopFollowing()
        tasks.cancelAll()
        coordinator.close()
    }
}

/// The learner's two lists, read together: their enrollments and their favourites.
@MainActor
private struct OwnLists {
    let courses: CoursesFeature
    let favourites: FavouritesFeature

    var isUnread: Bool { courses.isUnread || favourites.isUnread }

    func glimpse(_ ids: [CourseID]) async {
        async let enrollments: Void = courses.glimpse(ids)
        async let marks: Void = favourites.glimpse(ids)
        _ = await (enrollments, marks)
    }

    func prepare() async {
        async let enrollments: Void = courses.prepare()
        async let marks: Void = favourites.prepare()
        _ = await (enrollments, marks)
    }

    /// What the catalog's screens are told of the learner, and ask of them: their marks and
    /// actions, owned by the Courses and Favourites features.
    func catalogLearner(id learner: UserID, learning: any LearningRepository, tasks: OwnedTasks) -> CatalogLearner {
        let (courses, favourites) = (self.courses, self.favourites)
        return CatalogLearner(
            id: learner,
            prepare: { page in
                // The page's marks first, by its ids (and its prerequisites', for `locked`);
                // the whole lists, which My courses, Favourites and the header's counts
                // read, load behind the first frame.
                await self.glimpse(page.map(\.id) + page.compactMap(\.prerequisiteID))
                // Once: every later page finds them loaded or loading.
                guard self.isUnread else { return }
                tasks.run { await self.prepare() }
            },
            marks: { course in
                CourseMarks(
                    isFavourite: favourites.isFavourite(course.id),
                    isSavingFavourite: favourites.isSaving(course.id),
                    enrollment: courses.enrollment(for: course.id),
                    isSavingEnrollment: courses.isSaving(course.id),
                    prerequisiteMet: course.prerequisiteID.map { courses.hasCompleted($0) } ?? true,
                    completedAt: courses.completion(of: course.id)
                )
            },
            toggleFavourite: { course in favourites.toggle(course) },
            enroll: { course, prerequisite in courses.enroll(course, prerequisite: prerequisite) },
            unenroll: { course in courses.unenroll(course) },
            setLesson: { number, title, course, done in courses.setLesson(number, titled: title, of: course, done: done) },
            readAgain: { id in await self.readAgain(id) },
            answers: { [learning] course throws(AppError) in
                try await learning.answers(userID: learner, courseID: course)
            }
        )
    }

    /// Both lists (or the enrollment in `id`, with the favourites) read again.
    func readAgain(_ id: CourseID?) async {
        async let enrollments: Void = courses.readAgain(id)
        async let marks: Void = favourites.readAgain()
        _ = await (enrollments, marks)
    }
}

/// What stands in for a screen asked of a scope that has closed: nothing, and no keys.
@MainActor
private final class ClosedScreen: Screen {
    var keys: [KeyDeclaration] { [] }
    func draw(in canvas: inout some Canvas, frame: Frame) {}
    func handle(_ event: InputEvent) async -> EventResult { .ignored }
}

/// What the header says of the learner besides their name.
@Observable
@MainActor
final class LearnerStatus {
    /// Cards due today; `nil` until read.
    var due: Int?
}
