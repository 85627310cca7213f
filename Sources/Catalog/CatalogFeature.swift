import Presentation
import SharedKernel
import TerminalUI

/// What the catalog reads and does about the signed-in learner. The catalog owns none of it:
/// the shell wires these to the Courses and Favourites features, the owners.
public struct CatalogLearner: Sendable {
    /// Who is signed in: the catalog's own filters (`is:open`, `is:enrolled`, `is:favourite`)
    /// are theirs.
    public var id: UserID
    /// Makes what `marks` reads known for these courses (a page about to show), without
    /// waiting for the learner's whole lists.
    public var prepare: @MainActor ([Course]) async -> Void
    /// How the learner relates to a course, as shown now.
    public var marks: @MainActor (Course) -> CourseMarks
    // Each action shows its change before it returns (so the next key acts on it) and
    // saves in the returned task; its owner reports the outcome.

    /// `f`.
    public var toggleFavourite: @MainActor (Course) -> Task<Void, Never>
    /// `e`, with the course's prerequisite when it has one.
    public var enroll: @MainActor (Course, Course?) -> Task<Void, Never>
    public var unenroll: @MainActor (Course) -> Task<Void, Never>
    /// `Space`: lesson number (from 1) and title, the course, done or not.
    public var setLesson: @MainActor (Int, String, Course, Bool) -> Task<Void, Never>
    /// Reads the learner's marks as the store has them now: of one course when it is opened,
    /// of every course shown for `r`.
    public var readAgain: @MainActor (CourseID?) async -> Void
    /// The learner's answers to a course's questions, for its page's score.
    public var answers: @Sendable (CourseID) async throws(AppError) -> [Answer]

    public init(
        id: UserID,
        prepare: @escaping @MainActor ([Course]) async -> Void,
        marks: @escaping @MainActor (Course) -> CourseMarks,
        toggleFavourite: @escaping @MainActor (Course) -> Task<Void, Never>,
        enroll: @escaping @MainActor (Course, Course?) -> Task<Void, Never>,
        unenroll: @escaping @MainActor (Course) -> Task<Void, Never>,
        setLesson: @escaping @MainActor (Int, String, Course, Bool) -> Task<Void, Never>,
        readAgain: @escaping @MainActor (CourseID?) async -> Void,
        answers: @escaping @Sendable (CourseID) async throws(AppError) -> [Answer] = { _ in [] }
    ) {
        self.id = id
        self.prepare = prepare
        self.marks = marks
        self.toggleFavourite = toggleFavourite
        self.enroll = enroll
        self.unenroll = unenroll
        self.setLesson = setLesson
        self.readAgain = readAgain
        self.answers = answers
    }
}

/// What changed in the catalog's own data (not the learner's marks, which their owners keep
/// live), as the shell hears it from the store: everything news said since the last notice,
/// in one, so a screen decides once whether to read again (one re-read per notice).
public struct CatalogChange: Hashable, Sendable {
    /// Anything (an import, or news that was missed): every screen reads again what it shows.
    public var everything = false
    /// Courses whose seats changed, say: screens that show one read it again.
    public var courses: Set<CourseID> = []
    /// The learner's enrollments or favourites: what a query of their own (`is:enrolled`,
    /// `is:favourite`, `is:open`) lists may differ.
    public var marks = false
    /// Courses in which the learner answered: their pages' scores.
    public var answers: Set<CourseID> = []

    public init(everything: Bool = false, courses: Set<CourseID> = [], marks: Bool = false, answers: Set<CourseID> = []) {
        self.everything = everything
        self.courses = courses
        self.marks = marks
        self.answers = answers
    }

    public static let everything = CatalogChange(everything: true)
    public static let marks = CatalogChange(marks: true)
    public static func course(_ id: CourseID) -> CatalogChange { CatalogChange(courses: [id]) }
    public static func answers(_ id: CourseID) -> CatalogChange { CatalogChange(answers: [id]) }

    /// Nothing to tell.
    public var isEmpty: Bool { !everything && courses.isEmpty && !marks && answers.isEmpty }
}

/// Where the catalog's courses come from, for what an empty catalog says to do.
public enum CatalogSource: Hashable, Sendable {
    /// The database on this machine: `tui import-courses FILE` fills it.
    case localDatabase
    /// An EduGo server (`host:port`): its courses are imported there, not here.
    case server(host: String)
}

/// The catalog feature's one entry point: give it the course port and the learner, get its
/// screens. Everything that leaves the feature goes through the closures passed in.
@MainActor
public struct CatalogFeature {
    /// How many rows the catalog's list reads at a time, its first page among them (remote
    /// mode keeps that page for its next start, `ReplicaCourses.openingRows`).
    public nonisolated static let pageSize = 100

    private let courses: any CourseRepository
    private let learner: CatalogLearner
    private let source: CatalogSource
    private let changes: Notices<CatalogChange>
    private let layout: LayoutSettings
    private let savedSearch: @MainActor () -> Int?

    /// `changes` tells the catalog's screens, while they exist, what the store changed;
    /// `layout` says from how many columns the list shows the selected course beside it;
    /// `savedSearch`, how many saved courses the catalog searches while the server cannot be
    /// reached (remote mode's replica; nil: the store's whole catalog).
    public init(
        courses: any CourseRepository, learner: CatalogLearner, source: CatalogSource = .localDatabase,
        changes: Notices<CatalogChange> = Notices(), layout: LayoutSettings = LayoutSettings(),
        savedSearch: @escaping @MainActor () -> Int? = { nil }
    ) {
        self.courses = courses
        self.learner = learner
        self.source = source
        self.changes = changes
        self.layout = layout
        self.savedSearch = savedSearch
    }

    /// The catalog tab's root list. `onCourseSelected` is called on `Enter`.
    public func makeListScreen(onCourseSelected: @escaping @MainActor (CourseID) -> Void) -> any Screen {
        CatalogListScreen(
            viewModel: CatalogListViewModel(courses: courses, learner: learner, changes: changes, savedSearch: savedSearch),
            source: source,
            layout: layout, onCourseSelected: onCourseSelected)
    }

    /// A course's page. `onOpenCourse` opens another course (`p`, the prerequisite);
    /// `onOpenLesson` opens the selected lesson (`Enter`, by its number from 1);
    /// `onBack` is called on `Backspace` (Esc and q are the shell's).
    public func makeDetailScreen(
        courseID: CourseID,
        onOpenCourse: @escaping @MainActor (CourseID) -> Void,
        onOpenLesson: @escaping @MainActor (Int) -> Void = { _ in },
        onBack: @escaping @MainActor () -> Void
    ) -> any Screen {
        CourseDetailScreen(
            viewModel: CourseDetailViewModel(courseID: courseID, courses: courses, learner: learner, changes: changes),
            onOpenCourse: onOpenCourse,
            onOpenLesson: onOpenLesson,
            onBack: onBack
        )
    }

    /// Every key of the catalog list, for `tui --help`.
    public nonisolated static var listKeys: [KeyDeclaration] { CatalogListScreen.declaredKeys }
    /// Every key of a course's page, for `tui --help`.
    public nonisolated static var detailKeys: [KeyDeclaration] { CourseDetailScreen.declaredKeys }
    /// What the marks in the catalog mean, for the help overlay and `tui --help`.
    public nonisolated static var marks: HelpSection { CatalogListScreen.marksHelp }
    /// What the search understands, for the help overlay and `tui --help`.
    public nonisolated static var filters: HelpSection { CatalogListScreen.filtersHelp }
}
