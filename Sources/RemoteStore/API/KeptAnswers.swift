import EduGoAPI
import SharedKernel
import Synchronization

/// Public answers this store was given (catalog pages, courses) with their `ETag`s: one asked
/// again is asked with `If-None-Match`, and the server's `304` (no body) answered with the one
/// kept. The server validates every time, so nothing kept is ever shown unchecked. The last
/// `capacity` asked are kept.
final class KeptAnswers<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let capacity: Int

    private struct State {
        var answers: [Key: (etag: String, value: Value)] = [:]
        /// Keys in the order they were kept, the oldest first.
        var order: [Key] = []
    }

    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = capacity
    }

    func kept(_ key: Key) -> (etag: String, value: Value)? {
        state.withLock { $0.answers[key] }
    }

    func keep(_ value: Value, etag: String, for key: Key) {
        state.withLock { state in
            if state.answers.updateValue((etag, value), forKey: key) == nil { state.order.append(key) }
            while state.order.count > capacity {
                state.answers[state.order.removeFirst()] = nil
            }
        }
    }

    var count: Int { state.withLock { $0.answers.count } }
}

/// A catalog request as sent, and for whom (a learner's own filters answer them alone).
struct CatalogRequest: Hashable, Sendable {
    let query: Operations.ListCourses.Input.Query
    let learner: UserID?
}

/// What a conditional request brought: the answer whole, with its tag if it had one, or
/// `304` (the one kept is still the answer).
enum Revalidated<Value: Sendable>: Sendable {
    case sent(Value, etag: String?)
    case notModified
}
