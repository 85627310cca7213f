import SharedKernel

/// What the store's news has marked stale since it was last acted on: each thing once,
/// however many events named it, so a burst of news of any length costs the memory of one
/// value and, when applied, one re-read of each thing.
struct StaleMarks: Equatable {
    /// Anything may have changed (news was missed, or named too much to keep apart).
    private var everything = false
    /// The learner's enrollment in these courses (joined, left, a lesson, an answer's activity).
    private(set) var enrollments: Set<CourseID> = []
    /// The whole list of enrollments: more courses were named than are worth a read each.
    private(set) var allEnrollments = false
    private(set) var favourites: Set<CourseID> = []
    private(set) var allFavourites = false
    /// Courses in which the learner answered: their pages' scores.
    private(set) var answered: Set<CourseID> = []
    /// The learner's deck and streak (an answer or a review).
    private(set) var learning = false
    private(set) var profile = false
    /// The public catalog's courses (their seats).
    private(set) var courses: Set<CourseID> = []
    /// Many courses at once (an import): every catalog screen reads again what it shows.
    private(set) var catalog = false

    /// Past this many courses of one kind, one read of the whole list costs less than a read
    /// of each (one request, where each course is one).
    static let coursesApart = 2
    /// Past this many courses of the catalog, reading it again costs less than finding which
    /// of them show.
    static let coursesInAll = 64

    init() {}

    /// Marks what `news` names about `learner` (other learners' news is not theirs to read).
    init(_ news: ChangeNews, of learner: UserID) {
        add(news, of: learner)
    }

    var isEmpty: Bool { self == StaleMarks() }

    /// Anything may have changed: every screen reads again what it shows.
    var isEverything: Bool { everything }

    mutating func add(_ news: ChangeNews, of learner: UserID) {
        guard !everything else { return }
        switch news {
        case .readEverything: self = .everything
        case .changed(let changes):
            for change in changes where change.learner == nil || change.learner == learner {
                add(change)
                if everything { return }
            }
        }
    }

    /// The reads applying these marks may cost, as a terminal idle on a list has it: a read of
    /// each course of the learner's lists named, or of the list; the learner; the habit and the
    /// deck (or the profile's counts); the page of a course answered in; the catalog's page, and
    /// its count when anything may have changed. `NewsPacer` spaces applications by it.
    var reads: Int {
        guard !everything else { return learnerPart.reads + catalogPart.reads }
        var reads = (allEnrollments ? 1 : enrollments.count) + (allFavourites ? 1 : favourites.count)
        if profile { reads += 1 }
        if learning { reads += 2 }
        if !answered.isEmpty { reads += 1 }
        if catalog {
            reads += 2
        } else if !courses.isEmpty {
            reads += 1
        }
        return reads
    }

    /// Everything `other` marks, too.
    mutating func merge(_ other: StaleMarks) {
        guard !everything else { return }
        guard !other.everything else {
            self = .everything
            return
        }
        enrollments.formUnion(other.enrollments)
        allEnrollments = allEnrollments || other.allEnrollments
        favourites.formUnion(other.favourites)
        allFavourites = allFavourites || other.allFavourites
        answered.formUnion(other.answered)
        learning = learning || other.learning
        profile = profile || other.profile
        courses.formUnion(other.courses)
        catalog = catalog || other.catalog
        bound()
    }

    static var everything: StaleMarks {
        var marks = StaleMarks()
        marks.everything = true
        return marks
    }

    private mutating func add(_ change: Change) {
        switch change {
        case .enrollment(_, let id): enrollments.insert(id)
        case .favourite(_, let id): favourites.insert(id)
        case .learning(_, let id):
            learning = true
            // An answer moves the course's last activity, and its score.
            if let id {
                enrollments.insert(id)
                answered.insert(id)
            }
        case .profile: profile = true
        case .course(let id): courses.insert(id)
        case .catalog: catalog = true
        // Remote mode's store ends the session itself; a local sign-in has no ending to hear.
        case .signedOut: break
        }
        bound()
    }

    /// Keeps the sets small, whatever a server names: many courses of the learner's lists
    /// become the whole list; too many of the catalog's (their seats, scores), the catalog
    /// read again.
    private mutating func bound() {
        if enrollments.count > Self.coursesApart {
            allEnrollments = true
            enrollments = []
        }
        if favourites.count > Self.coursesApart {
            allFavourites = true
            favourites = []
        }
        if courses.count > Self.coursesInAll || answered.count > Self.coursesInAll { catalog = true }
        if catalog {
            courses = []
            answered = []
        }
    }

    // MARK: - Lanes

    /// What is the learner's own (their lists, deck, profile): a terminal of theirs changes it
    /// now and then, so it is applied promptly even while the catalog is busy.
    var learnerPart: StaleMarks {
        var part = self
        if everything {
            part = StaleMarks()
            (part.allEnrollments, part.allFavourites, part.learning, part.profile) = (true, true, true, true)
        }
        part.courses = []
        part.catalog = false
        return part
    }

    /// What is the public catalog's (seats, imports): on a busy platform it changes all the
    /// time, and is applied at its own pace.
    var catalogPart: StaleMarks {
        var part = StaleMarks()
        part.courses = courses
        part.catalog = catalog || everything
        return part
    }
}
