import SharedKernel
import Synchronization

/// Lessons read in this session, so going back to one reads no body again (a lesson is its
/// course's content, the same for every learner). Bounded by its bodies' bytes: past the
/// budget the lessons read first go first, so no session grows without end. News of an
/// import (`catalog`, `read_everything`) makes every lesson kept stale: asked again with its
/// `ETag` before it shows, and kept on the server's `304`.
final class LessonCache: Sendable {
    struct Key: Hashable {
        let courseID: CourseID
        let lesson: Int
    }

    struct Kept: Sendable {
        let content: LessonContent
        let etag: String?
        /// Whether news since it was read may have changed it.
        var stale = false
    }

    private struct State {
        var contents: [Key: Kept] = [:]
        /// Keys in the order they came, the oldest first.
        var order: [Key] = []
        var bytes = 0
    }

    /// 8 MiB of bodies: 32 of the longest lessons, thousands of ordinary ones.
    static let budget = 8 * 1024 * 1024

    private let state = Mutex(State())

    func kept(_ key: Key) -> Kept? {
        state.withLock { $0.contents[key] }
    }

    /// Keeps a lesson read (in place of the one kept: a stale one read again).
    func keep(_ content: LessonContent, etag: String?, of key: Key) {
        let size = Self.size(of: content)
        state.withLock { state in
            if let old = state.contents.removeValue(forKey: key) {
                state.bytes -= Self.size(of: old.content)
                state.order.removeAll { $0 == key }
            }
            while state.bytes + size > Self.budget, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                if let gone = state.contents.removeValue(forKey: oldest) { state.bytes -= Self.size(of: gone.content) }
            }
            state.contents[key] = Kept(content: content, etag: etag)
            state.order.append(key)
            state.bytes += size
        }
    }

    /// The server said the lesson kept is still the lesson (`304`).
    func confirm(_ key: Key) {
        state.withLock { $0.contents[key]?.stale = false }
    }

    /// An import changed the catalog (or news was missed): every lesson kept is asked again,
    /// with its tag, before it shows.
    func markStale() {
        state.withLock { state in
            for key in state.contents.keys { state.contents[key]?.stale = true }
        }
    }

    private static func size(of content: LessonContent) -> Int {
        (content.body?.utf8.count ?? 0) + content.questions.reduce(0) { $0 + $1.prompt.utf8.count + $1.explanation.utf8.count }
            + 64
    }
}
