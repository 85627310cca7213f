import EduGoAPI
import SharedKernel
import Synchronization

/// The catalog pages this store was given, with their `ETag`s: a page asked again is asked
/// with `If-None-Match`, and the server's `304` (no body) answered with the page kept here.
/// The server validates every time, so nothing kept is ever shown unchecked.
final class KeptPages: Sendable {
    /// A request as sent, and for whom (a learner's own filters answer them alone).
    struct Key: Hashable, Sendable {
        let query: Operations.ListCourses.Input.Query
        let learner: UserID?
    }

    /// The last pages asked; a page is 1 to 60 KiB.
    static let capacity = 128

    private struct State {
        var pages: [Key: (etag: String, page: Components.Schemas.CoursePage)] = [:]
        /// Keys in the order they were kept, the oldest first.
        var order: [Key] = []
    }

    private let state = Mutex(State())

    func kept(_ key: Key) -> (etag: String, page: Components.Schemas.CoursePage)? {
        state.withLock { $0.pages[key] }
    }

    func keep(_ page: Components.Schemas.CoursePage, etag: String, for key: Key) {
        state.withLock { state in
            if state.pages.updateValue((etag, page), forKey: key) == nil { state.order.append(key) }
            while state.order.count > Self.capacity {
                state.pages[state.order.removeFirst()] = nil
            }
        }
    }

    var count: Int { state.withLock { $0.pages.count } }
}
