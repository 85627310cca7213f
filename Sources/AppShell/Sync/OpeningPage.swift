import SharedKernel
import Synchronization

/// Remote mode's first frame from disk. The catalog page the last start opened on is kept in
/// the replica; at the next start the catalog's first page and count are drawn from it, with
/// the learner's marks on it as the replica has them, while the server is asked for the same
/// page behind the frame. Once the server has answered (or could not be reached), every read
/// is the server's as always, and the catalog reads again if the server's page differs. Once
/// a run: only the run's first catalog read may open from disk; when none is kept, the
/// server's first page and count, as the catalog read them, are kept for the next start.
final class OpeningPage: Sendable {
    private enum Phase {
        /// No catalog page or count read yet in this run.
        case unread
        /// The run's first read, of `query`, is looking for its kept page; the page and the
        /// count (which the catalog asks together) both wait for it, so neither goes to the
        /// server while the other is drawn from disk.
        case deciding(query: CatalogQuery, kept: Task<CountedPage?, Never>)
        /// None was kept for `query`: the server's first page and count of it, to keep both.
        case unkept(query: CatalogQuery, rows: [CatalogRow]?, total: CatalogCount?)
        /// The first page of `query` was drawn from disk; the server's is being asked.
        case fromDisk(query: CatalogQuery, page: CountedPage)
        case done
    }

    private let phase = Mutex(Phase.unread)
    /// The server asked behind the first frame, or the page kept for the next start.
    private let asking = Mutex<Task<Void, Never>?>(nil)
    /// Told when the run's first frame needs the server: none is kept for its first read, or
    /// writes queued before are sent first (`serverIsNeeded`).
    private let serverNeeded: @Sendable () -> Void

    init(serverNeeded: @escaping @Sendable () -> Void = {}) {
        self.serverNeeded = serverNeeded
    }

    /// The page kept for `query` while the run's first frame is drawn from disk, else nil.
    /// The run's first catalog read (page or count) reads it (`read`), and every read of the
    /// same query meanwhile waits for that one; when one was kept, `ask` asks the server for
    /// it behind the frame, once, and ends the drawing from disk (`finish`).
    func kept(
        _ query: CatalogQuery, read: @escaping @Sendable () async -> CountedPage?,
        ask: @escaping @Sendable (CountedPage) async -> Void
    ) async -> CountedPage? {
        let deciding: Task<CountedPage?, Never>? = phase.withLock { phase in
            switch phase {
            case .unread:
                let task = Task { await read() }
                phase = .deciding(query: query, kept: task)
                return task
            case .deciding(let asked, let task) where asked == query: return task
            default: return nil
            }
        }
        guard let deciding else { return page(of: query) }
        let page = await deciding.value
        let decided = phase.withLock { phase in
            guard case .deciding(let asked, _) = phase, asked == query else { return false }
            phase = page.map { .fromDisk(query: query, page: $0) } ?? .unkept(query: query, rows: nil, total: nil)
            return true
        }
        if decided, let page { behind { await ask(page) } }
        if decided, page == nil { serverNeeded() }
        return page
    }

    /// The start cannot draw its first frame without the server (writes queued before go first).
    func serverIsNeeded() {
        serverNeeded()
    }

    /// The server's first page of `query`, none being kept: with its count, the page to keep.
    func read(_ rows: [CatalogRow], of query: CatalogQuery) -> CountedPage? {
        phase.withLock { phase in
            guard case .unkept(let asked, nil, let total) = phase, asked == query else { return nil }
            guard let total else {
                phase = .unkept(query: query, rows: rows, total: nil)
                return nil
            }
            phase = .done
            return CountedPage(rows: rows, total: total)
        }
    }

    /// The server counted `query`, none being kept: with its first page, the page to keep.
    func counted(_ total: CatalogCount, of query: CatalogQuery) -> CountedPage? {
        phase.withLock { phase in
            guard case .unkept(let asked, let rows, nil) = phase, asked == query else { return nil }
            guard let rows else {
                phase = .unkept(query: query, rows: nil, total: total)
                return nil
            }
            phase = .done
            return CountedPage(rows: rows, total: total)
        }
    }

    /// `work` behind the first frame (the server asked, the page kept).
    func behind(_ work: @escaping @Sendable () async -> Void) {
        asking.withLock { $0 = Task { await work() } }
    }

    /// The server answered for the page drawn from disk, or could not be reached.
    func finish() {
        phase.withLock { $0 = .done }
    }

    /// Waits for the work behind the first frame (tests).
    func settled() async {
        await asking.withLock { $0 }?.value
    }

    /// The page drawn from disk for `query`, while the server's is asked.
    private func page(of query: CatalogQuery) -> CountedPage? {
        phase.withLock { phase in
            guard case .fromDisk(let kept, let page) = phase, kept == query else { return nil }
            return page
        }
    }

    /// Whether the first frame is being drawn from disk: the marks on it are the replica's.
    var drawsFromDisk: Bool {
        phase.withLock { phase in
            guard case .fromDisk = phase else { return false }
            return true
        }
    }
}
