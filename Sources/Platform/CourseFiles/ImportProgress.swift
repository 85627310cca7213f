import Foundation
import SharedKernel
import Synchronization

/// How far an import has come: the store names each step as it starts and, where the step has
/// a count, how much of it is done; `import-courses` draws it (`ImportProgressDisplay`). Told
/// from the importing thread, read from the drawing one; a report is one short lock, so the
/// store may tell it every thousand rows.
public final class ImportProgress: Sendable {
    /// The steps of an import, in the order they come (a store takes those it has).
    public enum Step: Sendable, Hashable, CaseIterable {
        /// The file read and checked.
        case reading
        /// The database opened, and brought up to date (made and seeded when it is new); then
        /// the write lock waited for, and the file's checks against the stored catalog.
        case opening
        /// The rows sent to the database server (PostgreSQL's `COPY`).
        case sending
        /// The whole catalog's order worked out.
        case ordering
        case writing
        case lessons
        /// The search index filled.
        case indexing
        /// The search index merged into one piece.
        case compacting
        /// The other indexes, the counters, the commit.
        case finishing

        /// What the step is doing, as a line says it while it runs and once it is done.
        public var title: LocalizedText {
            switch self {
            case .reading: "Reading the file"
            case .opening: "Opening the database"
            case .sending: "Sending courses"
            case .ordering: "Ordering the catalog"
            case .writing: "Writing courses"
            case .lessons: "Writing lessons"
            case .indexing: "Indexing for search"
            case .compacting: "Compacting the search index"
            case .finishing: "Finishing"
            }
        }
    }

    /// A step that ended: its count (nil when it has none) and how long it took.
    public struct Finished: Sendable, Equatable {
        public let step: Step
        public let count: Int?
        public let duration: Duration

        public init(step: Step, count: Int?, duration: Duration) {
            self.step = step
            self.count = count
            self.duration = duration
        }
    }

    /// What a display reads: the steps done, and the one running.
    public struct Snapshot: Sendable {
        public var finished: [Finished] = []
        public var step: Step?
        /// How much the running step has done; nil while it has told no count.
        public var done: Int?
        public var total: Int?
        public var stepStarted: ContinuousClock.Instant
    }

    private let clock: @Sendable () -> ContinuousClock.Instant
    private let state: Mutex<Snapshot>

    /// `now`: the clock the durations are read from (a test's own).
    public init(now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.clock = now
        self.state = Mutex(Snapshot(stepStarted: now()))
    }

    /// `step` starts (the running one, if any, ends); `total`: how much it will count, if known.
    /// Begun again while it runs, it goes on.
    public func begin(_ step: Step, total: Int? = nil) {
        let now = clock()
        state.withLock { state in
            guard state.step != step else { return }
            Self.end(&state, at: now)
            state.step = step
            state.done = nil
            state.total = total
            state.stepStarted = now
        }
    }

    /// The running step has done `done` (of its total, when it has one).
    public func advance(to done: Int) {
        state.withLock { $0.done = done }
    }

    /// The running step ends: call once the last step is through.
    public func end() {
        let now = clock()
        state.withLock { state in
            Self.end(&state, at: now)
            state.step = nil
        }
    }

    public var snapshot: Snapshot { state.withLock { $0 } }

    private static func end(_ state: inout Snapshot, at now: ContinuousClock.Instant) {
        guard let step = state.step else { return }
        state.finished.append(Finished(step: step, count: state.done, duration: now - state.stepStarted))
    }
}
