import Catalog
import Foundation
import Presentation
import SharedKernel
import Synchronization
import TerminalUI
import TestSupport

/// The learner as the catalog sees them, in memory: marks a test sets, and every action the
/// catalog asked for, in order. Actions can be held at a gate.
@MainActor
final class LearnerStub {
    enum Action: Equatable {
        case toggleFavourite(CourseID)
        case enroll(CourseID, prerequisite: CourseID?)
        case unenroll(CourseID)
        case setLesson(Int, CourseID, done: Bool)
        /// The marks read again from the store: of one course, or of all (nil).
        case readAgain(CourseID?)
    }

    var favourites: Set<CourseID> = []
    var enrollments: [CourseID: Enrollment] = [:]
    var completed: Set<CourseID> = []
    /// When the learner completed each course, left since or not.
    var completions: [CourseID: Date] = [:]
    var saving: Set<CourseID> = []
    private(set) var actions: [Action] = []
    /// The actions that change something (reading the marks again does not).
    var writes: [Action] {
        actions.filter {
            if case .readAgain = $0 { return false }
            return true
        }
    }
    /// What the owners reported, in order.
    private(set) var reported: [StatusMessage] = []
    /// When set, `enroll` is refused with this reason and changes nothing.
    var enrollRefusal: String?
    /// When set, lesson marks show at once, then fail with this reason and are undone.
    var lessonFailure: String?
    /// Saves wait here before they report.
    var gate: Gate?
    /// What reading the marks again finds (another terminal changed them); nil: what shows.
    var storeHolds: (favourites: Set<CourseID>, enrollments: [CourseID: Enrollment])?
    /// The learner's answers as "the store" holds them, by course.
    let answers = StoredAnswers()

    /// Applies a change at once, like the real owners, and reports once the "save" is done.
    private func save(_ message: StatusMessage) -> Task<Void, Never> {
        let gate = self.gate
        return Task { [self] in
            await gate?.wait()
            reported.append(message)
        }
    }

    var learner: CatalogLearner {
        CatalogLearner(
            id: User.demo.id,
            prepare: { _ in },
            marks: { [self] course in
                CourseMarks(
                    isFavourite: favourites.contains(course.id),
                    isSavingFavourite: saving.contains(course.id),
                    enrollment: enrollments[course.id],
                    isSavingEnrollment: false,
                    prerequisiteMet: course.prerequisiteID.map { completed.contains($0) } ?? true,
                    completedAt: completions[course.id]
                )
            },
            toggleFavourite: { [self] course in
                actions.append(.toggleFavourite(course.id))
                let now = !favourites.contains(course.id)
                if now { favourites.insert(course.id) } else { favourites.remove(course.id) }
                return save(.success(now ? "Added \(course.title) to favourites" : "Removed \(course.title) from favourites"))
            },
            enroll: { [self] course, prerequisite in
                actions.append(.enroll(course.id, prerequisite: prerequisite?.id))
                if let enrollRefusal {
                    reported.append(.error(.verbatim(enrollRefusal)))
                    return Task {}
                }
                enrollments[course.id] = .fixture(courseID: course.id)
                return save(.success("Enrolled in \(course.title)"))
            },
            unenroll: { [self] course in
                actions.append(.unenroll(course.id))
                enrollments[course.id] = nil
                return save(.success("Unenrolled from \(course.title)"))
            },
            setLesson: { [self] number, title, course, done in
                actions.append(.setLesson(number, course.id, done: done))
                if done { enrollments[course.id]?.lessonsDone.insert(number) } else { enrollments[course.id]?.lessonsDone.remove(number) }
                if let lessonFailure {
                    let gate = self.gate
                    return Task { [self] in
                        await gate?.wait()
                        if done {
                            enrollments[course.id]?.lessonsDone.remove(number)
                        } else {
                            enrollments[course.id]?.lessonsDone.insert(number)
                        }
                        reported.append(.error(.verbatim(lessonFailure)))
                    }
                }
                return save(.success(done ? "Lesson done: \(title)" : "Lesson not done: \(title)"))
            },
            readAgain: { [self] id in
                actions.append(.readAgain(id))
                // What "the store" holds now, as a test arranged it.
                if let stored = storeHolds {
                    favourites = stored.favourites
                    enrollments = stored.enrollments
                }
            },
            answers: { [answers] id throws(AppError) in try answers.of(id) }
        )
    }
}

/// Answers a test arranges, read from any task.
final class StoredAnswers: Sendable {
    private let byCourse = Mutex<[CourseID: [Answer]]>([:])
    /// When set, reading them fails with it (the server away).
    private let failure = Mutex<AppError?>(nil)

    func of(_ id: CourseID) throws(AppError) -> [Answer] {
        if let failure = failure.withLock({ $0 }) { throw failure }
        return byCourse.withLock { $0[id] ?? [] }
    }

    func fail(with error: AppError?) { failure.withLock { $0 = error } }

    func set(_ answers: [Answer], of id: CourseID) { byCourse.withLock { $0[id] = answers } }
}

/// Draws a screen into an 80×24 canvas, as the shell would between header and footer.
@MainActor
func draw(_ screen: some Screen, width: Int = 80, height: Int = 24) -> TextCanvas {
    var canvas = TextCanvas(size: Size(width: width, height: height))
    screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: width, height: height - 2), tick: 0))
    return canvas
}

extension String {
    /// Display columns before the first occurrence of `needle`.
    func prefixWidth(upTo needle: String) -> Int? {
        range(of: needle).map { self[..<$0.lowerBound].displayWidth }
    }
}
