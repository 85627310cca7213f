import Foundation

/// The id a terminal gives an operation when it makes it: the server's idempotency key, so a
/// repeat (a lost acknowledgement, a retry after a crash) is applied once.
public struct OperationID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Letters, digits, `-` and `_`, 8 to 64 of them (a UUID fits).
    public init?(_ text: String) {
        guard HybridTime.isToken(text, lengths: 8...64) else { return nil }
        rawValue = text
    }

    private init(valid: String) { rawValue = valid }

    /// A new id: a UUID's 36 characters are all of the allowed ones.
    public static func random() -> OperationID { OperationID(valid: UUID().uuidString.lowercased()) }

    public var description: String { rawValue }
}

/// One write of a learner, as a terminal queues it and the server applies it.
public enum OperationKind: Hashable, Sendable {
    case favourite(CourseID, isFavourite: Bool)
    case lesson(CourseID, number: Int, done: Bool)
    case enroll(CourseID)
    case unenroll(CourseID)
    /// The learner's offset from UTC places the answer on their day (their streak).
    case answer(QuestionRef, chosen: Set<Int>, secondsFromGMT: Int)
    case review(QuestionRef, grade: ReviewGrade, secondsFromGMT: Int)
    /// Takes back the grade given at `reviewedAt` (whole seconds).
    case undoReview(QuestionRef, reviewedAt: Date)
    case name(String)

    /// The wire name of the kind (`openapi.yaml`).
    public var name: String {
        switch self {
        case .favourite: "favourite"
        case .lesson: "lesson"
        case .enroll: "enroll"
        case .unenroll: "unenroll"
        case .answer: "answer"
        case .review: "review"
        case .undoReview: "undo_review"
        case .name: "name"
        }
    }

    /// Whether applying it schedules review cards (by the settings the operation carries).
    public var schedulesCards: Bool {
        switch self {
        case .answer, .review, .undoReview: true
        case .favourite, .lesson, .enroll, .unenroll, .name: false
        }
    }

    /// The course it touches, if any.
    public var courseID: CourseID? {
        switch self {
        case .favourite(let id, _), .lesson(let id, _, _), .enroll(let id), .unenroll(let id): id
        case .answer(let ref, _, _), .review(let ref, _, _), .undoReview(let ref, _): ref.courseID
        case .name: nil
        }
    }
}

public struct SyncOperation: Hashable, Sendable {
    public let id: OperationID
    /// When the learner made it, on the terminal's hybrid clock.
    public let time: HybridTime
    public let kind: OperationKind
    /// The learner's review settings when it was made, by which an answer's first card, a
    /// grade and the grades replayed after either are scheduled wherever it is merged (a
    /// replay by other settings would move the learner's cards). The defaults for the kinds
    /// that schedule nothing.
    public let settings: ReviewSettings

    public init(id: OperationID, time: HybridTime, kind: OperationKind, settings: ReviewSettings = .default) {
        self.id = id
        self.time = time
        self.kind = kind
        self.settings = kind.schedulesCards ? settings : .default
    }

    /// Everything the operation says, in one text: an id sent again with another fingerprint
    /// is a different operation under a reused id, refused.
    public var fingerprint: String {
        let what: String
        switch kind {
        case .favourite(let id, let on): what = "\(id.rawValue)\u{1F}\(on)"
        case .lesson(let id, let number, let done): what = "\(id.rawValue)\u{1F}\(number)\u{1F}\(done)"
        case .enroll(let id), .unenroll(let id): what = id.rawValue
        case .answer(let ref, let chosen, let offset): what = "\(Self.text(ref))\u{1F}\(chosen.sorted())\u{1F}\(offset)"
        case .review(let ref, let grade, let offset): what = "\(Self.text(ref))\u{1F}\(grade.rawValue)\u{1F}\(offset)"
        case .undoReview(let ref, let at): what = "\(Self.text(ref))\u{1F}\(Int64(at.timeIntervalSince1970.rounded(.down)))"
        case .name(let name): what = name
        }
        // Default settings add nothing, so an operation queued before settings were carried
        // keeps its fingerprint.
        let scheduled =
            settings == .default
            ? ""
            : "\u{1F}\(settings.retention)\u{1F}\(settings.learningSteps)\u{1F}\(settings.relearningSteps)"
        return "\(kind.name)\u{1F}\(time)\u{1F}\(what)\(scheduled)"
    }

    private static func text(_ ref: QuestionRef) -> String { "\(ref.courseID.rawValue)\u{1F}\(ref.lesson)\u{1F}\(ref.question)" }
}

/// What became of an operation, the first time and every time it is sent again.
public enum OperationOutcome: Hashable, Sendable {
    /// Written.
    case applied
    /// Merged without a change: a later write of the same item holds (a favourite, a lesson
    /// mark, the name), or what it asks for already holds (enrolled already).
    case superseded
    /// Refused for good, with the reason; nothing was written. Sending it again changes nothing.
    case refused(AppError)
    /// Not applied: its id was given before to a different operation (the first stands).
    case conflicting
}

/// How a store keeps an outcome: a code and a subject (a course title), from which the same
/// outcome comes back for the same operation.
public enum OperationRecord {
    public static func code(of outcome: OperationOutcome) -> (code: String, subject: String) {
        switch outcome {
        case .applied: ("applied", "")
        case .superseded: ("superseded", "")
        case .conflicting: ("conflicting", "")
        case .refused(let error):
            switch error {
            case .courseNotFound: ("course_not_found", "")
            case .notEnrolled: ("not_enrolled", "")
            case .noSuchLesson: ("lesson_not_found", "")
            case .invalidAnswer: ("invalid_answer", "")
            case .nothingToUndo: ("nothing_to_undo", "")
            case .notDue: ("card_not_due", "")
            case .refused(.alreadyEnrolled(let title)): ("already_enrolled", title)
            case .refused(.courseFull(let title)): ("course_full", title)
            case .refused(.courseInactive(let title)): ("course_inactive", title)
            case .refused(.prerequisiteNotCompleted(let title)): ("prerequisite_missing", title)
            case .invalidName(.empty): ("invalid_name", "empty")
            case .invalidName(.tooLong(let maximum)): ("invalid_name", "\(maximum)")
            case .invalidName(.invalidCharacters): ("invalid_name", "characters")
            default: ("refused", error.technicalMessage)
            }
        }
    }

    /// The outcome `code` and `subject` stand for, for `kind`; `nil` for a code not known here.
    public static func outcome(code: String, subject: String, of kind: OperationKind) -> OperationOutcome? {
        let course = kind.courseID ?? ""
        let ref: QuestionRef =
            switch kind {
            case .answer(let ref, _, _), .review(let ref, _, _), .undoReview(let ref, _): ref
            default: QuestionRef(courseID: course, lesson: 1, question: 0)
            }
        let lesson: Int =
            switch kind {
            case .lesson(_, let number, _): number
            default: ref.lesson
            }
        switch code {
        case "applied": return .applied
        case "superseded": return .superseded
        case "conflicting": return .conflicting
        case "course_not_found": return .refused(.courseNotFound(course))
        case "not_enrolled": return .refused(.notEnrolled(course))
        case "lesson_not_found": return .refused(.noSuchLesson(course, lesson))
        case "invalid_answer": return .refused(.invalidAnswer(ref))
        case "nothing_to_undo": return .refused(.nothingToUndo(ref))
        case "card_not_due": return .refused(.notDue(ref))
        case "already_enrolled": return .refused(.refused(.alreadyEnrolled(title: subject)))
        case "course_full": return .refused(.refused(.courseFull(title: subject)))
        case "course_inactive": return .refused(.refused(.courseInactive(title: subject)))
        case "prerequisite_missing": return .refused(.refused(.prerequisiteNotCompleted(prerequisiteTitle: subject)))
        case "invalid_name":
            switch subject {
            case "empty": return .refused(.invalidName(.empty))
            case "characters": return .refused(.invalidName(.invalidCharacters))
            default: return Int(subject).map { .refused(.invalidName(.tooLong(maximum: $0))) }
            }
        case "refused": return .refused(.storage(.saving, detail: subject))
        default: return nil
        }
    }

    /// Whether `error` refuses the operation for good (recorded, answered again to a repeat),
    /// rather than for now (the store or the network failed: not recorded, tried again later).
    public static func isFinal(_ error: AppError) -> Bool {
        switch error {
        case .courseNotFound, .notEnrolled, .noSuchLesson, .invalidAnswer, .nothingToUndo, .refused, .invalidName, .notDue: true
        case .connectivity, .unreachable, .notSignedIn, .sessionEnded, .invalidCredentials, .invalidAccount, .emailTaken,
            .tooManyAttempts, .tooManyRequests, .storage, .cancelled:
            false
        }
    }
}
