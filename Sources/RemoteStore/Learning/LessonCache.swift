import SharedKernel
import Synchronization

/// Lessons read in this session, so going back to one reads no body again (a lesson is its
/// course's content, the same for every learner). Bounded by its bodies' bytes: past the
/// budget the lessons read first go first, so no session grows without end. News of an
/// import (`catalog`, `read_everything`) empties it.
final class LessonCache: Sendable {
    struct Key: Hashable {
        let courseID: CourseID
        let lesson: Int
    }

    private struct State {
        var contents: [Key: LessonContent] = [:]
        /// Keys in the order they came, the oldest first.
        var order: [Key] = []
        var bytes = 0
    }

    /// 8 MiB of bodies: 32 of the longest lessons, thousands of ordinary ones.
    static let budget = 8 * 1024 * 1024

    private let state = Mutex(State())

    func content(of key: Key) -> LessonContent? {
        state.withLock { $0.contents[key] }
    }

    func keep(_ content: LessonContent, of key: Key) {
        let size = Self.size(of: content)
        state.withLock { state in
            guard state.contents[key] == nil else { return }
            while state.bytes + size > Self.budget, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                if let gone = state.contents.removeValue(forKey: oldest) { state.bytes -= Self.size(of: gone) }
            }
            state.contents[key] = content
            state.order.append(key)
            state.bytes += size
        }
    }

    /// An import changed the catalog (or news was missed): lessons are read afresh.
    func forgetAll() {
        state.withLock { $0 = State() }
    }

    private static func size(of content: LessonContent) -> Int {
        (content.body?.utf8.count ?? 0) + content.questions.reduce(0) { $0 + $1.prompt.utf8.count + $1.explanation.utf8.count }
            + 64
    }
}
