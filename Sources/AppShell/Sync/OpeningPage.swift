import SharedKernel
import Synchronization

/// Remote mode's first frame from disk. The catalog page the last start opened on is kept in
/// the replica; at the next start the catalog's first page and count are drawn from it, with
/// the learner's marks on it as the replica has them, while the server is asked for the same
/// page behind the frame. Once the server has answered (or could not be reached), every read
/// is the server's as always, and the catalog reads again if the server's page differs. Once
/// a run: only the run's first catalog page may open from disk; when none is kept, the
/// server's first page and count, as the catalog read them, are kept for the next start.
final class OpeningPage: Sendable {
    private struct State {
        var phase = Phase.unread
        /// The server's count of a query read before its first page.
        var counted: (query: CatalogQuery, total: CatalogCount)?
    }

    private enum Phase {
        /// No catalog page read yet in this run.
        case unread
        /// The first page of `query` came from the server; its count is awaited, to keep both.
        case reading(query: CatalogQuery, rows: [CatalogRow])
        /// The first page of `query` was drawn from disk; the server's is being asked.
        case fromDisk(query: CatalogQuery, page: CountedPage)
        case done
    }

    private let state = Mutex(State())
    /// The server asked behind the first frame, or the page kept for the next start.
    private let asking = Mutex<Task<Void, Never>?>(nil)

    /// Whether this is the run's first catalog page (true once).
    func begin() -> Bool {
        state.withLock { state in
            guard case .unread = state.phase else { return false }
            state.phase = .done
            return true
        }
    }

    /// The first page was drawn from `page`, kept for `query`; `ask` asks the server for it,
    /// behind the frame, and ends the drawing from disk (`finish`).
    func drawn(_ page: CountedPage, of query: CatalogQuery, ask: @escaping @Sendable () async -> Void) {
        state.withLock { $0.phase = .fromDisk(query: query, page: page) }
        behind(ask)
    }

    /// The first page of `query` came from the server: with its count, the page to keep.
    func read(_ rows: [CatalogRow], of query: CatalogQuery) -> CountedPage? {
        state.withLock { state in
            if let counted = state.counted, counted.query == query {
                state.phase = .done
                return CountedPage(rows: rows, total: counted.total)
            }
            state.phase = .reading(query: query, rows: rows)
            return nil
        }
    }

    /// The server counted `query`: with the first page read, the page to keep.
    func counted(_ total: CatalogCount, of query: CatalogQuery) -> CountedPage? {
        state.withLock { state in
            switch state.phase {
            case .reading(let read, let rows) where read == query:
                state.phase = .done
                return CountedPage(rows: rows, total: total)
            case .unread:
                state.counted = (query, total)
                return nil
            default:
                return nil
            }
        }
    }

    /// `work` behind the first frame (the server asked, the page kept).
    func behind(_ work: @escaping @Sendable () async -> Void) {
        asking.withLock { $0 = Task { await work() } }
    }

    /// The server answered for the page drawn from disk, or could not be reached.
    func finish() {
        state.withLock { $0.phase = .done }
    }

    /// Waits for the work behind the first frame (tests).
    func settled() async {
        await asking.withLock { $0 }?.value
    }

    /// The page drawn from disk for `query`, while the server's is asked.
    func page(of query: CatalogQuery) -> CountedPage? {
        state.withLock { state in
            guard case .fromDisk(let kept, let page) = state.phase, kept == query else { return nil }
            return page
        }
    }

    /// Whether the first frame is being drawn from disk: the marks on it are the replica's.
    var drawsFromDisk: Bool {
        state.withLock { state in
            guard case .fromDisk = state.phase else { return false }
            return true
        }
    }
}
