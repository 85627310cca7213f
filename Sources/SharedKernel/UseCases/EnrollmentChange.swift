import Foundation

/// What an enrollment change reads inside a store's write transaction, locked against other
/// writers until it ends (`EnrollmentChange.access` says which rows).
public struct EnrollmentFacts: Sendable {
    public var course: Course
    /// The learner's enrollment in the course, with its lessons done, if there is one.
    public var enrollment: Enrollment?
    /// The course's prerequisite and the learner's enrollment in it, when the change asks
    /// for them (`EnrollmentAccess.seats`) and the course has one that exists.
    public var prerequisite: (course: Course, enrollment: Enrollment?)?

    public init(course: Course, enrollment: Enrollment?, prerequisite: (course: Course, enrollment: Enrollment?)? = nil) {
        self.course = course
        self.enrollment = enrollment
        self.prerequisite = prerequisite
    }
}

/// Which rows a change reads and locks until its transaction ends.
public enum EnrollmentAccess: Sendable {
    /// Joining or leaving: the course's row (its seats), and the prerequisite's facts.
    case seats
    /// Marking lessons: the learner's enrollment row only, so the marks of many learners of
    /// one course do not wait for each other.
    case progress
}

/// What a change decided to write; each store turns it into its SQL.
public enum EnrollmentWrite: Hashable, Sendable {
    /// A first enrollment: active, no lessons done; takes a seat.
    case join(userID: UserID, courseID: CourseID, at: Date)
    /// Joining again: `status` (`LessonRules.rejoin`), enrolled at `at`, lessons done and
    /// completion date as they were; takes a seat.
    case rejoin(EnrollmentID, courseID: CourseID, at: Date, status: EnrollmentStatus)
    /// Leaving: dropped, lessons done and completion date kept; frees a seat (never below zero).
    case leave(EnrollmentID, courseID: CourseID)
    /// Lesson `number` marked done (at `at`) or not, with the enrollment's status and
    /// completion date after it.
    case markLesson(EnrollmentID, number: Int, done: Bool, at: Date, status: EnrollmentStatus, completedAt: Date?)
}

extension EnrollmentWrite {
    /// Whether the course's seats taken change: the catalog shows them to everyone.
    public var movesSeats: Bool {
        switch self {
        case .join, .rejoin, .leave: true
        case .markLesson: false
        }
    }
}

/// One change of a learner's enrollment, decided by the rules the same way over every store:
/// the store reads `EnrollmentFacts` under the locks of `access`, asks `decide`, writes what
/// it answers, all in one transaction, and returns the enrollment as stored.
public protocol EnrollmentChange: Sendable {
    var userID: UserID { get }
    var courseID: CourseID { get }
    var access: EnrollmentAccess { get }
    /// The write, or the refusal; `facts` is `nil` when the course does not exist.
    func decide(_ facts: EnrollmentFacts?) throws(AppError) -> EnrollmentWrite
}

/// Enrolls by `EnrollmentRules`: a seat taken, or `.refused` with the reason.
public struct Enroll: EnrollmentChange {
    public let userID: UserID
    public let courseID: CourseID
    public let now: Date
    public var access: EnrollmentAccess { .seats }

    public init(userID: UserID, courseID: CourseID, now: Date) {
        self.userID = userID
        self.courseID = courseID
        self.now = now
    }

    public func decide(_ facts: EnrollmentFacts?) throws(AppError) -> EnrollmentWrite {
        guard let facts else { throw .courseNotFound(courseID) }
        let prerequisite = facts.prerequisite.map { ($0.course, LessonRules.meetsPrerequisite($0.enrollment)) }
        if let refusal = EnrollmentRules.refusal(for: facts.course, existing: facts.enrollment, prerequisite: prerequisite) {
            throw .refused(refusal)
        }
        if let existing = facts.enrollment {
            let back = LessonRules.rejoin(existing, lessonCount: facts.course.lessonCount, at: now)
            return .rejoin(existing.id, courseID: courseID, at: now, status: back.status)
        }
        return .join(userID: userID, courseID: courseID, at: now)
    }
}

/// Leaves a course and frees its seat, keeping the progress (`LessonRules.leave`);
/// `.notEnrolled` without an enrollment that holds one.
public struct Unenroll: EnrollmentChange {
    public let userID: UserID
    public let courseID: CourseID
    public var access: EnrollmentAccess { .seats }

    public init(userID: UserID, courseID: CourseID) {
        self.userID = userID
        self.courseID = courseID
    }

    public func decide(_ facts: EnrollmentFacts?) throws(AppError) -> EnrollmentWrite {
        guard let existing = facts?.enrollment, existing.holdsPlace else { throw .notEnrolled(courseID) }
        return .leave(existing.id, courseID: courseID)
    }
}

/// Marks a lesson done or not by `LessonRules`: the last lesson done completes the course.
public struct MarkLesson: EnrollmentChange {
    public let userID: UserID
    public let courseID: CourseID
    public let number: Int
    public let done: Bool
    public let now: Date
    public var access: EnrollmentAccess { .progress }

    public init(_ number: Int, done: Bool, userID: UserID, courseID: CourseID, now: Date) {
        self.number = number
        self.done = done
        self.userID = userID
        self.courseID = courseID
        self.now = now
    }

    public func decide(_ facts: EnrollmentFacts?) throws(AppError) -> EnrollmentWrite {
        guard let facts else { throw .courseNotFound(courseID) }
        switch LessonRules.mark(number, done: done, in: facts.enrollment, lessonCount: facts.course.lessonCount, now: now) {
        case .failure(.notEnrolled): throw .notEnrolled(courseID)
        case .failure(.noSuchLesson(let number)): throw .noSuchLesson(courseID, number)
        case .success(let marked):
            return .markLesson(marked.id, number: number, done: done, at: now, status: marked.status, completedAt: marked.completedAt)
        }
    }
}

/// A store's side of the enrollment changes: in one transaction, read `EnrollmentFacts` under
/// the change's locks, write what it decides, and return the enrollment as stored. A store
/// that implements it gets the changes of `EnrollmentRepository` from here.
public protocol EnrollmentTransactions: Sendable {
    /// The time a change happens at.
    var now: @Sendable () -> Date { get }
    func run(_ change: some EnrollmentChange) async throws(AppError) -> Enrollment
}

extension EnrollmentRepository where Self: EnrollmentTransactions {
    public func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        try await run(Enroll(userID: userID, courseID: courseID, now: now()))
    }

    public func unenroll(userID: UserID, courseID: CourseID) async throws(AppError) {
        _ = try await run(Unenroll(userID: userID, courseID: courseID))
    }

    public func setLesson(_ number: Int, done: Bool, userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        try await run(MarkLesson(number, done: done, userID: userID, courseID: courseID, now: now()))
    }
}
