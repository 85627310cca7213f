import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import AppShell

/// A key and a frame do the work of what the screen shows, whatever the learner keeps: with
/// 1,003 favourites and 864 enrollments, ↓ and the frames after it ask the store nothing and
/// sort nothing, on every tab and in the reader. Counted, not timed (`WorkMeter`, the store's
/// calls): the header's counts once sorted every favourite on every frame, and ↓ at 1 M went
/// from 1.2 to 4.9 ms unseen.
///
/// No time limit: nothing here waits on a clock, and its time in a full suite is that of the
/// main actor and the cooperative pool it shares (0.7 s alone, 57 s among the 736 tests).
@Suite("A key and a frame cost what the screen shows, not what the learner keeps")
@MainActor
final class FrameWorkTests {
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    /// Wide enough that the header shows the learner's counts.
    static let size = Size(width: 160, height: 40)
    static let favouriteCount = 1_003
    static let enrolledCount = 864

    enum Place: String, CaseIterable {
        case catalog, myCourses, favourites, profile, review, reader
    }

    /// One shell walks every place (a shell each made the suite slow on a busy machine).
    @Test("on every tab and in the reader: three frames, then ↓ five times with a frame after each; no store call, no sorting")
    func everyPlace() async throws {
        let meter = WorkMeter()
        try await WorkMeter.$current.withValue(meter) {
            let (sut, store, lesson) = try await makeSignedIn()
            for place in Place.allCases {
                try await go(to: place, sut, lesson: lesson)
                let calls = await store.messages.count
                meter.reset()

                for _ in 0..<3 { _ = frame(sut) }
                let idle = meter.counts
                for _ in 0..<5 {
                    sut.enqueue([.key(.down)])
                    await sut.settle()
                    _ = frame(sut)
                }

                #expect(idle == WorkMeter.Counts(), "work in frames with nothing changed on \(place): \(idle)")
                #expect(meter.counts == WorkMeter.Counts(), "work per ↓ on \(place): \(meter.counts)")
                #expect(Array(await store.messages.dropFirst(calls)) == [], "store calls per ↓ on \(place)")
            }
        }
    }

    // MARK: - Helpers

    /// The demo learner with 1,003 favourites and 864 enrollments (one course with a lesson
    /// to read and a card to review), signed in with the header's counts loaded.
    private func makeSignedIn() async throws -> (ShellController, InMemoryStore, CourseID) {
        let courses = (0..<1_200).map { index in
            Course.fixture(
                id: CourseID("course-\(index)"), title: "Course \(String(index * 7919 % 1_200)) of the catalog", capacity: nil,
                lessonCount: 1)
        }
        let question = Question(prompt: "Which?", choices: ["this", "that"], correct: [0], explanation: "This.")
        let lesson = Lesson(title: "Read", minutes: 5, content: LessonContent(body: "# Read\n\nSome text.", questions: [question]))
        let first = courses[0].id
        let store = InMemoryStore(courses: courses, lessons: [first: [lesson]], signedIn: User.demo.id)
        for course in courses.prefix(Self.favouriteCount) { await store.arrangeFavourite(true, User.demo.id, course.id) }
        for (index, course) in courses.prefix(Self.enrolledCount).enumerated() {
            await store.addEnrollment(.fixture(id: Int64(index + 1), courseID: course.id))
        }
        _ = try await store.answer(
            [1], to: QuestionRef(courseID: first, lesson: 1, question: 0), userID: User.demo.id,
            at: StudyTime(now: Date(), secondsFromGMT: TimeZone.current.secondsFromGMT()))

        let sut = ShellController(ports: ShellControllerTests.ports(store), clock: ShellClock(ManualClock()))
        leaks.track(sut)
        sut.terminalSize = Self.size
        await sut.start()
        await sut.settle()
        let shown = frame(sut)
        #expect(shown.contains("864 enrolled") && shown.contains("1003 ★"), "the header's counts, loaded:\n\(shown)")
        return (sut, store, first)
    }

    /// Brings `place` to the front, loaded.
    private func go(to place: Place, _ sut: ShellController, lesson course: CourseID) async throws {
        let key: Character? =
            switch place {
            case .catalog: "1"
            case .myCourses: "2"
            case .favourites: "3"
            case .profile: "4"
            case .review: "5"
            case .reader: nil
            }
        if let key { sut.enqueue([.char(key)]) } else { try #require(sut.coordinator).push(.lesson(course, 1)) }
        await sut.settle()
        _ = frame(sut)
    }

    private func frame(_ sut: ShellController) -> String {
        sut.syncVisibleScreen()
        var canvas = TextCanvas(size: Self.size)
        _ = sut.draw(in: &canvas, tick: 0)
        return canvas.text
    }
}
