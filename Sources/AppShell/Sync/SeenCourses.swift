import SharedKernel
import Synchronization

/// The catalog's courses remote mode has shown lately, as the server gave them: a write on
/// one made while the server is out of reach puts its row in the replica from here. Bounded:
/// the oldest go first.
final class SeenCourses: Sendable {
    private struct State {
        var courses: [CourseID: Course] = [:]
        var order: [CourseID] = []
        var start = 0
    }

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int = 5_000) {
        self.limit = limit
    }

    func remember(_ courses: some Sequence<Course>) {
        state.withLock { state in
            for course in courses {
                if state.courses.updateValue(course, forKey: course.id) == nil { state.order.append(course.id) }
            }
            // Forget the oldest, a batch at a time, so remembering stays cheap.
            let over = state.order.count - state.start - limit
            guard over > 0 else { return }
            for id in state.order[state.start..<(state.start + over)] { state.courses[id] = nil }
            state.start += over
            if state.start > limit {
                state.order.removeFirst(state.start)
                state.start = 0
            }
        }
    }

    func course(_ id: CourseID) -> Course? {
        state.withLock { $0.courses[id] }
    }
}
