import Foundation

/// How the signed-in learner relates to a course, as every screen shows it: what the store
/// confirmed, with the learner's own changes on top while they are being saved.
public struct CourseMarks: Hashable, Sendable {
    public var isFavourite: Bool
    /// The favourite mark is being saved.
    public var isSavingFavourite: Bool
    /// The enrollment that holds a place, when there is one (or one being saved).
    public var enrollment: Enrollment?
    /// Joining or leaving is being saved.
    public var isSavingEnrollment: Bool
    /// The course's prerequisite was completed (once: history counts), or it has none.
    public var prerequisiteMet: Bool
    /// When the learner completed this course, if they ever did, also after leaving it.
    public var completedAt: Date?

    public init(
        isFavourite: Bool = false,
        isSavingFavourite: Bool = false,
        enrollment: Enrollment? = nil,
        isSavingEnrollment: Bool = false,
        prerequisiteMet: Bool = true,
        completedAt: Date? = nil
    ) {
        self.isFavourite = isFavourite
        self.isSavingFavourite = isSavingFavourite
        self.enrollment = enrollment
        self.isSavingEnrollment = isSavingEnrollment
        self.prerequisiteMet = prerequisiteMet
        self.completedAt = completedAt ?? enrollment?.completedAt
    }

    public var isEnrolled: Bool { enrollment != nil }
    /// Completed now: enrolled, every lesson done (a lesson undone since makes it in progress).
    public var isCompleted: Bool { enrollment?.status == .completed }
}

/// Why the learner cannot enroll in a course now, as one word in its catalog row.
public enum EnrollmentBlock: String, Hashable, Sendable, CaseIterable {
    case full
    case closed
    case locked

    /// The word a row shows for it.
    public var label: LocalizedText {
        switch self {
        case .full: "full"
        case .closed: "closed"
        case .locked: "locked"
        }
    }
}
