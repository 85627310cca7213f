import HTTPTypes
import OpenAPIRuntime
import SharedKernel
import Synchronization

/// The public pages this server wrote (catalog pages with no learner's `is:` filter, courses,
/// lessons), kept as written so the hottest pages are answered without the database, within
/// `capacity` bytes: the least recently asked go first, and a page is kept only when it was
/// asked more often lately than the one it would push out (`FrequencySketch`).
///
/// Truthful by what this server's `ChangeHub` reads: a page is dropped when a change it shows
/// is read (`.course`: its seats; `.catalog`: an import), before any event stream hears of
/// it, so a terminal that reads again on an event gets the page as it is now. A page read
/// while a change was being read is not kept (its `Ticket` is stale): it may predate the
/// change. Nothing is kept until the hub knows where the log stands (`hear(.ready)`).
final class PageCache: Sendable {
    /// A page as the route writes it, with the validator its answers carry.
    struct Page: Sendable {
        let body: [UInt8]
        let etag: String

        init(body: [UInt8]) {
            self.body = body
            etag = Self.etag(of: body)
        }

        /// The page as the answer to `request`: with its tag and `cacheControl`, and `304`
        /// with no body when the request's `If-None-Match` names the tag.
        func answer(to request: HTTPRequest, cacheControl: String) -> (HTTPResponse, HTTPBody?) {
            var headers = HTTPFields()
            headers[.eTag] = etag
            headers[.cacheControl] = cacheControl
            if let asked = request.headerFields[.ifNoneMatch], CatalogRoute.names(asked, etag) {
                return (HTTPResponse(status: .notModified, headerFields: headers), nil)
            }
            headers[.contentType] = "application/json; charset=utf-8"
            return (HTTPResponse(status: .ok, headerFields: headers), HTTPBody(body))
        }

        /// A strong validator of the bytes (FNV-1a, 64 bits, in hex): the same page, from any
        /// server and at any time, has the same one.
        static func etag(of body: [UInt8]) -> String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in body {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            let hex = String(hash, radix: 16)
            return "\"p" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
        }
    }

    /// What the cache did since the server started, and holds now (`/metrics`).
    struct Counts: Hashable, Sendable {
        var hits = 0
        var misses = 0
        /// Pages dropped to make room.
        var evictions = 0
        /// Pages dropped because a change they show was read.
        var dropped = 0
        /// Pages read and not kept: the cache was full of pages asked more often.
        var refused = 0
        var bytes = 0
        var pages = 0
    }

    /// A read's claim to keep what it reads: the generation when it began.
    struct Ticket: Sendable {
        fileprivate let generation: UInt64
    }

    /// What a kept page costs besides its bytes (its key, its slot, its courses' index).
    static let overhead = 256

    let capacity: Int
    private let state: Mutex<State>
    private let hits = Atomic(0)
    private let misses = Atomic(0)
    private let evictions = Atomic(0)
    private let dropped = Atomic(0)
    private let refused = Atomic(0)

    init(capacity: Int) {
        self.capacity = capacity
        // About one counter a kilobyte kept (a few times as many keys as pages fit), and never
        // so few that keys share counters by chance.
        state = Mutex(State(frequency: FrequencySketch(keys: max(4096, capacity / 1024))))
    }

    var counts: Counts {
        let (bytes, pages) = state.withLock { ($0.bytes, $0.index.count) }
        return Counts(
            hits: hits.load(ordering: .relaxed), misses: misses.load(ordering: .relaxed), evictions: evictions.load(ordering: .relaxed),
            dropped: dropped.load(ordering: .relaxed), refused: refused.load(ordering: .relaxed), bytes: bytes, pages: pages)
    }

    /// The page kept for `key`, counted as a hit or a miss; nil before the hub is ready.
    func page(for key: PublicPageKey) -> Page? {
        let found = state.withLock { state -> Page?? in
            guard state.isLive else { return .none }
            return .some(state.touch(key))
        }
        guard case .some(let page) = found else { return nil }
        if page == nil { misses.add(1, ordering: .relaxed) } else { hits.add(1, ordering: .relaxed) }
        return page
    }

    /// A claim to keep a page about to be read; nil while the hub is not ready.
    func ticket() -> Ticket? {
        state.withLock { $0.isLive ? Ticket(generation: $0.generation) : nil }
    }

    /// Keeps `page`, which shows `courses`, unless a change was read since `ticket`, it alone
    /// is larger than the whole cache, or the pages it would push out were asked as often.
    func keep(_ page: Page, showing courses: [CourseID], for key: PublicPageKey, ticket: Ticket) {
        let cost = page.body.count + Self.overhead
        guard cost <= capacity else { return }
        let evicted = state.withLock { state -> Int? in
            guard state.isLive, state.generation == ticket.generation else { return 0 }
            guard state.admits(key, cost: cost, within: capacity) else { return nil }
            state.insert(key, page: page, courses: courses, cost: cost)
            var evicted = 0
            while state.bytes > capacity, state.removeOldest() { evicted += 1 }
            return evicted
        }
        if let evicted { evictions.add(evicted, ordering: .relaxed) } else { refused.add(1, ordering: .relaxed) }
    }

    /// Drops the pages showing `courses`, whose seats this server just moved (the change log
    /// says so too, a moment later).
    func seatsMoved(in courses: [CourseID]) {
        guard !courses.isEmpty else { return }
        hear(.changes(courses.map { .course($0) }))
    }

    /// Drops what `news` may have changed.
    func hear(_ news: ChangeHub.News) {
        let evicted = state.withLock { state -> Int in
            switch news {
            case .ready:
                state.isLive = true
                return 0
            case .gap:
                state.generation &+= 1
                return state.removeAll()
            case .changes(let changes):
                var evicted = 0
                for change in changes {
                    switch change {
                    case .catalog:
                        state.generation &+= 1
                        evicted += state.removeAll()
                    case .course(let id):
                        state.generation &+= 1
                        evicted += state.remove(showing: id)
                    case .enrollment, .favourite, .learning, .profile, .signedOut:
                        continue
                    }
                }
                return evicted
            }
        }
        dropped.add(evicted, ordering: .relaxed)
    }

    // MARK: - The list, most recently asked first

    private struct Slot {
        var key: PublicPageKey
        var page: Page
        var courses: [CourseID]
        var cost: Int
        /// Neighbours in the list (-1: none).
        var newer = -1
        var older = -1
    }

    private struct State {
        var isLive = false
        var generation: UInt64 = 0
        var frequency: FrequencySketch
        var slots: [Slot?] = []
        var free: [Int] = []
        var index: [PublicPageKey: Int] = [:]
        var byCourse: [CourseID: Set<Int>] = [:]
        var newest = -1
        var oldest = -1
        var bytes = 0

        /// The page for `key`, moved to the front; the ask counted either way.
        mutating func touch(_ key: PublicPageKey) -> Page? {
            frequency.record(key.hashValue)
            guard let slot = index[key], let page = slots[slot]?.page else { return nil }
            unlink(slot)
            linkFirst(slot)
            return page
        }

        mutating func insert(_ key: PublicPageKey, page: Page, courses: [CourseID], cost: Int) {
            if let kept = index[key] { remove(kept) }
            let entry = Slot(key: key, page: page, courses: courses, cost: cost)
            let slot: Int
            if let reused = free.popLast() {
                slot = reused
                slots[slot] = entry
            } else {
                slot = slots.count
                slots.append(entry)
            }
            index[key] = slot
            for course in courses { byCourse[course, default: []].insert(slot) }
            bytes += cost
            linkFirst(slot)
        }

        /// Whether a page for `key` costing `cost` may be kept: it fits beside the pages kept, or
        /// it was asked more often lately than each page that would go to make room for it.
        func admits(_ key: PublicPageKey, cost: Int, within capacity: Int) -> Bool {
            let wanted = frequency.estimate(key.hashValue)
            var room = capacity - bytes
            var victim = oldest
            while room < cost, victim >= 0, let entry = slots[victim] {
                if entry.key != key {
                    guard frequency.estimate(entry.key.hashValue) < wanted else { return false }
                }
                room += entry.cost
                victim = entry.newer
            }
            return true
        }

        /// Drops the least recently asked page; false when none is kept.
        mutating func removeOldest() -> Bool {
            guard oldest >= 0 else { return false }
            remove(oldest)
            return true
        }

        mutating func remove(showing course: CourseID) -> Int {
            guard let kept = byCourse[course] else { return 0 }
            for slot in kept { remove(slot) }
            return kept.count
        }

        mutating func removeAll() -> Int {
            let count = index.count
            self = State(isLive: isLive, generation: generation, frequency: frequency)
            return count
        }

        private mutating func remove(_ slot: Int) {
            guard let entry = slots[slot] else { return }
            unlink(slot)
            index[entry.key] = nil
            for course in entry.courses {
                byCourse[course]?.remove(slot)
                if byCourse[course]?.isEmpty == true { byCourse[course] = nil }
            }
            bytes -= entry.cost
            slots[slot] = nil
            free.append(slot)
        }

        private mutating func unlink(_ slot: Int) {
            guard let entry = slots[slot] else { return }
            if entry.newer >= 0 { slots[entry.newer]?.older = entry.older } else { newest = entry.older }
            if entry.older >= 0 { slots[entry.older]?.newer = entry.newer } else { oldest = entry.newer }
            slots[slot]?.newer = -1
            slots[slot]?.older = -1
        }

        private mutating func linkFirst(_ slot: Int) {
            slots[slot]?.older = newest
            slots[slot]?.newer = -1
            if newest >= 0 { slots[newest]?.newer = slot }
            newest = slot
            if oldest < 0 { oldest = slot }
        }
    }
}

/// A page that depends on no learner, by what it shows.
enum PublicPageKey: Hashable, Sendable {
    case catalog(CatalogPageKey)
    /// `GET /v1/courses/{id}`: the course and its syllabus.
    case course(CourseID)
    /// `GET /v1/courses/{id}/lessons/{n}`: a lesson's body and questions.
    case lesson(CourseID, Int)

    /// The one course the page shows; nil for a catalog page, which shows its rows'.
    var course: CourseID? {
        switch self {
        case .catalog: nil
        case .course(let id), .lesson(let id, _): id
        }
    }
}

/// A public page's request as the catalog answers it: two requests that ask the same (however
/// typed: spaces, case, accents, a limit out of range) share one kept page.
struct CatalogPageKey: Hashable, Sendable {
    var query: CatalogQuery.Meaning
    var position: CatalogPosition
    var limit: Int

    /// The key of a page that depends on no learner; nil for a learner's own filters.
    init?(_ query: CatalogQuery, position: CatalogPosition, limit: Int) {
        guard !query.dependsOnLearner else { return nil }
        self.query = query.meaning
        self.position = position
        self.limit = limit
    }
}
