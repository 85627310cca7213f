import Foundation

/// An operation as flat fields, the shape a terminal's outbox keeps it in (JSON) and the API
/// sends it in: the kind's name and the fields that kind carries.
public struct OperationFields: Codable, Hashable, Sendable {
    public var id: String
    public var time: String
    public var kind: String
    public var courseID: String?
    public var favourite: Bool?
    public var lesson: Int?
    public var done: Bool?
    public var question: Int?
    public var chosen: [Int]?
    public var grade: String?
    public var utcOffset: Int?
    /// Whole seconds since 1970.
    public var reviewedAt: Int64?
    public var name: String?
    /// The review settings, when not the defaults (`SyncOperation.settings`).
    public var retention: Double?
    public var learningSteps: [Int]?
    public var relearningSteps: [Int]?

    public init(_ operation: SyncOperation) {
        id = operation.id.rawValue
        time = operation.time.description
        kind = operation.kind.name
        courseID = operation.kind.courseID?.rawValue
        switch operation.kind {
        case .favourite(_, let on): favourite = on
        case .lesson(_, let number, let isDone): (lesson, done) = (number, isDone)
        case .enroll, .unenroll: break
        case .answer(let ref, let picked, let offset):
            (lesson, question, chosen, utcOffset) = (ref.lesson, ref.question, picked.sorted(), offset)
        case .review(let ref, let given, let offset):
            (lesson, question, grade, utcOffset) = (ref.lesson, ref.question, given.rawValue, offset)
        case .undoReview(let ref, let at):
            (lesson, question, reviewedAt) = (ref.lesson, ref.question, Int64(at.timeIntervalSince1970.rounded(.down)))
        case .name(let text): name = text
        }
        if operation.settings != .default {
            retention = operation.settings.retention
            learningSteps = operation.settings.learningSteps
            relearningSteps = operation.settings.relearningSteps
        }
    }

    /// The review settings these fields carry: the defaults for each one left out; nil for
    /// settings `ReviewSettings` refuses.
    public var settings: ReviewSettings? {
        let standard = ReviewSettings.default
        return try? ReviewSettings(
            retention: retention ?? standard.retention, learningSteps: learningSteps ?? standard.learningSteps,
            relearningSteps: relearningSteps ?? standard.relearningSteps)
    }

    /// The operation these fields make; nil when one is missing or the kind is not known.
    public var operation: SyncOperation? {
        guard let id = OperationID(id), let time = HybridTime(time), let kind = operationKind, let settings else { return nil }
        return SyncOperation(id: id, time: time, kind: kind, settings: settings)
    }

    private var operationKind: OperationKind? {
        let course: CourseID? = courseID.map { CourseID($0) }
        var ref: QuestionRef?
        if let course, let lesson, let question { ref = QuestionRef(courseID: course, lesson: lesson, question: question) }
        switch kind {
        case "favourite":
            guard let course, let favourite else { return nil }
            return .favourite(course, isFavourite: favourite)
        case "lesson":
            guard let course, let lesson, let done else { return nil }
            return .lesson(course, number: lesson, done: done)
        case "enroll": return course.map { .enroll($0) }
        case "unenroll": return course.map { .unenroll($0) }
        case "answer":
            guard let ref, let chosen else { return nil }
            return .answer(ref, chosen: Set(chosen), secondsFromGMT: utcOffset ?? 0)
        case "review":
            guard let ref, let grade = grade.flatMap({ ReviewGrade(rawValue: $0) }) else { return nil }
            return .review(ref, grade: grade, secondsFromGMT: utcOffset ?? 0)
        case "undo_review":
            guard let ref, let reviewedAt else { return nil }
            return .undoReview(ref, reviewedAt: Date(timeIntervalSince1970: Double(reviewedAt)))
        case "name": return name.map { .name($0) }
        default: return nil
        }
    }
}
