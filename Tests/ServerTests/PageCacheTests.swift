import SharedKernel
import Testing

@testable import Server

/// The public catalog pages kept in memory: bounded, least recently asked out first, and never
/// older than the changes the hub has read.
@Suite("Server: the page cache")
struct PageCacheTests {
    static func key(_ words: String, limit: Int = 20) -> PublicPageKey {
        .catalog(CatalogPageKey(CatalogQuery.parse(words), position: .first, limit: limit)!)
    }

    static func page(_ text: String, size: Int = 100) -> PageCache.Page {
        PageCache.Page(body: Array((text + String(repeating: " ", count: max(0, size - text.utf8.count))).utf8))
    }

    static func live(capacity: Int = 10_000) -> PageCache {
        let cache = PageCache(capacity: capacity)
        cache.hear(.ready)
        return cache
    }

    @Test("nothing is kept or counted before the hub knows where the change log stands")
    func notBeforeReady() throws {
        let cache = PageCache(capacity: 10_000)
        #expect(cache.ticket() == nil && cache.page(for: Self.key("swift")) == nil)
        cache.hear(.ready)
        let ticket = try #require(cache.ticket())
        cache.keep(Self.page("a"), showing: ["c-1"], for: Self.key("swift"), ticket: ticket)
        #expect(cache.page(for: Self.key("swift"))?.body == Self.page("a").body)
        #expect(cache.counts.hits == 1 && cache.counts.misses == 0 && cache.counts.pages == 1)
    }

    @Test("within its bytes: the least recently asked page goes first, and is counted")
    func leastRecentlyAsked() throws {
        let cost = 100 + PageCache.overhead
        let cache = Self.live(capacity: 2 * cost)
        for name in ["a", "b"] {
            #expect(cache.page(for: Self.key(name)) == nil)
            cache.keep(Self.page(name), showing: [], for: Self.key(name), ticket: try #require(cache.ticket()))
        }
        #expect(cache.page(for: Self.key("a")) != nil, "a asked: b is now the oldest")
        for _ in 0..<2 { #expect(cache.page(for: Self.key("c")) == nil) }
        cache.keep(Self.page("c"), showing: [], for: Self.key("c"), ticket: try #require(cache.ticket()))
        #expect(cache.page(for: Self.key("b")) == nil)
        #expect(cache.page(for: Self.key("a")) != nil && cache.page(for: Self.key("c")) != nil)
        #expect(cache.counts == PageCache.Counts(hits: 3, misses: 5, evictions: 1, dropped: 0, refused: 0, bytes: 2 * cost, pages: 2))
        cache.keep(Self.page("huge", size: 3 * cost), showing: [], for: Self.key("huge"), ticket: try #require(cache.ticket()))
        #expect(cache.counts.pages == 2, "a page larger than the whole cache is not kept")
    }

    @Test("a page asked once does not push out a page asked more often; asked as often again, it does")
    func askedOftenStays() throws {
        let cost = 100 + PageCache.overhead
        let cache = Self.live(capacity: 10 * cost)
        let hot = (0..<10).map { Self.key("hot \($0)") }
        for key in hot {
            for _ in 0..<3 { _ = cache.page(for: key) }
            cache.keep(Self.page("hot"), showing: [], for: key, ticket: try #require(cache.ticket()))
        }
        // A crawl of 200 pages, each asked once: under plain LRU it would flush every hot page.
        for number in 0..<200 {
            let key = Self.key("tail \(number)")
            #expect(cache.page(for: key) == nil)
            cache.keep(Self.page("tail"), showing: [], for: key, ticket: try #require(cache.ticket()))
        }
        #expect(hot.allSatisfy { cache.page(for: $0) != nil })
        #expect(cache.counts.refused == 200 && cache.counts.evictions == 0)
        // A page becoming popular gets in: asked more often than the least recently asked.
        let rising = Self.key("rising")
        for _ in 0..<5 { #expect(cache.page(for: rising) == nil) }
        cache.keep(Self.page("rising"), showing: [], for: rising, ticket: try #require(cache.ticket()))
        #expect(cache.page(for: rising) != nil && cache.counts.evictions == 1)
    }

    @Test("the sketch never counts a key below its asks, and halves its counts as asks go by")
    func sketch() {
        var sketch = FrequencySketch(keys: 4096)
        for key in 0..<64 {
            for _ in 0..<(key % 8) { sketch.record(key) }
        }
        #expect((0..<64).allSatisfy { Int(sketch.estimate($0)) >= $0 % 8 })
        #expect((1_000..<1_100).filter { sketch.estimate($0) > 0 }.count < 10, "keys never asked are mostly at nothing")
        for _ in 0..<100 { sketch.record(7) }
        #expect(sketch.estimate(7) == FrequencySketch.ceiling, "a count stops at the ceiling")
        // 40,960 counted asks (ten per counter of a row) make a period: the counts are halved.
        for key in 100_000..<141_000 { sketch.record(key) }
        #expect(sketch.estimate(7) < FrequencySketch.ceiling && sketch.estimate(7) >= FrequencySketch.ceiling / 2)
    }

    @Test("a seat moved drops the pages showing its course; an import or a gap drops them all")
    func changesDrop() throws {
        let cache = Self.live()
        cache.keep(Self.page("p1"), showing: ["c-1", "c-2"], for: Self.key("one"), ticket: try #require(cache.ticket()))
        cache.keep(Self.page("p2"), showing: ["c-3"], for: Self.key("two"), ticket: try #require(cache.ticket()))
        cache.hear(.changes([.favourite(UserID(1), "c-3"), .learning(UserID(1), nil), .course("c-2")]))
        #expect(cache.page(for: Self.key("one")) == nil && cache.page(for: Self.key("two")) != nil)
        cache.seatsMoved(in: ["c-3"])
        #expect(cache.page(for: Self.key("two")) == nil)
        for news in [ChangeHub.News.changes([.catalog]), .gap] {
            cache.keep(Self.page("p3"), showing: [], for: Self.key("three"), ticket: try #require(cache.ticket()))
            cache.hear(news)
            #expect(cache.page(for: Self.key("three")) == nil)
        }
        #expect(cache.counts.dropped == 4 && cache.counts.bytes == 0)
    }

    @Test("a page read while a change was read is not kept: it may be older than the change")
    func staleTicket() throws {
        let cache = Self.live()
        let ticket = try #require(cache.ticket())
        cache.hear(.changes([.course("c-9")]))
        cache.keep(Self.page("old"), showing: ["c-1"], for: Self.key("one"), ticket: ticket)
        #expect(cache.page(for: Self.key("one")) == nil)
        cache.keep(Self.page("new"), showing: ["c-1"], for: Self.key("one"), ticket: try #require(cache.ticket()))
        #expect(cache.page(for: Self.key("one"))?.body == Self.page("new").body)
    }

    @Test("a learner's own filters make no key; the same request however typed makes one")
    func keys() {
        #expect(CatalogPageKey(CatalogQuery.parse("swift is:favourite"), position: .first, limit: 20) == nil)
        #expect(CatalogPageKey(CatalogQuery.parse("is:open"), position: .first, limit: 20) == nil)
        #expect(CatalogPageKey(CatalogQuery.parse("is:enrolled"), position: .first, limit: 20) == nil)
        #expect(Self.key("  Swift   BASICS ") == Self.key("swift basics"))
        #expect(Self.key("swift", limit: 20) != Self.key("swift", limit: 21))
    }

    @Test("the ETag: the same bytes the same tag, other bytes another")
    func etags() {
        #expect(Self.page("a").etag == Self.page("a").etag)
        #expect(Self.page("a").etag != Self.page("b").etag)
        #expect(Self.page("a").etag.hasPrefix("\"p") && Self.page("a").etag.count == 19)
        #expect(CatalogRoute.names("*", "\"p1\"") && CatalogRoute.names("W/\"p1\"", "\"p1\"") && !CatalogRoute.names("\"p2\"", "\"p1\""))
        #expect(CatalogRoute.names("%22p1%22", "\"p1\""), "as an OpenAPI client encodes a header parameter")
    }
}
