import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

/// A list of 10 000 numbered rows read a page at a time.
@Suite("Paged list")
@MainActor
struct PagedListTests {
    struct Row: Identifiable, Hashable, Sendable {
        let id: Int
    }

    /// Counts the pages read; keys are the row numbers times 10, so they are not indices.
    final class Source {
        var total: Int
        var pagesRead: [PagePosition<Int>] = []
        var countsRead = 0
        /// Added to every row number, to tell one query's rows from another's.
        var offset = 0
        var failure: ListLoadError?

        init(total: Int) {
            self.total = total
        }

        func page(_ position: PagePosition<Int>, _ limit: Int) -> Result<[PagedItem<Int, Row>], ListLoadError> {
            pagesRead.append(position)
            if let failure { return .failure(failure) }
            let numbers: [Int]
            switch position {
            case .first: numbers = Array((0..<total).prefix(limit))
            case .last: numbers = Array((0..<total).suffix(limit))
            case .after(let key): numbers = Array((0..<total).filter { $0 * 10 > key }.prefix(limit))
            case .before(let key): numbers = Array((0..<total).filter { $0 * 10 < key }.suffix(limit))
            }
            return .success(numbers.map { PagedItem(key: $0 * 10, item: Row(id: $0 + offset)) })
        }
    }

    @Test("moving down reads the next pages before they are needed and keeps at most three pages")
    func scrollsForwards() async {
        let (sut, source) = makeSUT(total: 10_000)
        await sut.load()

        for _ in 0..<1_000 {
            _ = await sut.handle(.down, pageSize: 20)
        }
        await sut.settle()

        #expect(sut.selected == Row(id: 1_000))
        #expect(sut.position == 1_000)
        #expect(sut.items.count <= 300)
        #expect(source.pagesRead.count < 20)
        #expect(!source.pagesRead.contains { if case .last = $0 { true } else { false } })
    }

    @Test("a move past the rows read so far waits for the next page, so no key is lost at the edge")
    func moveWaitsAtTheEdge() async {
        let (sut, _) = makeSUT(total: 10_000)
        await sut.load()

        // PgDn far beyond the first page, with no time in between for prefetching.
        for _ in 0..<12 {
            _ = await sut.handle(.pageDown, pageSize: 20)
        }

        #expect(sut.selected == Row(id: 240))
        #expect(sut.position == 240)
    }

    @Test("End reads the last page; PgUp and ↑ then walk back with the right positions")
    func endAndBack() async {
        let (sut, _) = makeSUT(total: 10_000)
        await sut.load()

        _ = await sut.handle(.end, pageSize: 20)
        #expect(sut.selected == Row(id: 9_999))
        #expect(sut.position == 9_999)
        for _ in 0..<30 {
            _ = await sut.handle(.pageUp, pageSize: 20)
        }

        #expect(sut.selected == Row(id: 9_399))
        #expect(sut.position == 9_399)
        #expect(sut.items.count <= 300)
        _ = await sut.handle(.home, pageSize: 20)
        #expect(sut.selected == Row(id: 0))
        #expect(sut.position == 0)
    }

    @Test("End and Home move the window without counting the list again")
    func jumpsDoNotRecount() async {
        let (sut, source) = makeSUT(total: 10_000)
        await sut.load()

        _ = await sut.handle(.end, pageSize: 20)
        _ = await sut.handle(.home, pageSize: 20)
        await sut.settle()

        #expect(source.countsRead == 1)
    }

    @Test("a refresh reads the window where it is and keeps the selected row")
    func refreshKeepsPlace() async {
        let (sut, source) = makeSUT(total: 10_000)
        await sut.load()
        for _ in 0..<250 {
            _ = await sut.handle(.down, pageSize: 20)
        }
        await sut.settle()
        source.pagesRead = []

        await sut.refresh()

        #expect(sut.selected == Row(id: 250))
        #expect(sut.position == 250)
        #expect(source.pagesRead.count == 2)  // the row before the window, then the window
    }

    @Test("a refresh that fails keeps the rows on screen")
    func failedRefreshKeepsRows() async {
        let (sut, source) = makeSUT(total: 30)
        await sut.load()
        source.failure = ListLoadError(message: "offline")

        await sut.reload()

        #expect(sut.items.count == 30)
        #expect(sut.isSettled)
    }

    @Test("a refresh asked while one is in flight runs again after it, so the newest data shows")
    func refreshWhileRefreshing() async {
        let gate = Gate(open: true)
        let (sut, source) = makeSUT(total: 10, gate: gate)
        await sut.load()
        await gate.close()
        let arrived = await gate.arrivals

        let first = Task { await sut.refresh() }
        await gate.waitForArrivals(arrived + 1)
        source.total = 12  // changes after the first refresh read
        await sut.refresh()  // returns at once: one is in flight
        await gate.open()
        await first.value

        #expect(sut.items.count == 12)
        #expect(sut.count == .exactly(12))
    }

    @Test("the list is unsettled while it loads, while a new query's rows are on their way, and while it jumps")
    func settledness() async {
        let gate = Gate()
        let (sut, source) = makeSUT(total: 10_000, gate: gate)
        #expect(!sut.isSettled)
        let load = Task { await sut.load() }
        await gate.waitForArrivals(1)
        #expect(!sut.isSettled)
        await gate.open()
        await load.value
        #expect(sut.isSettled)

        await gate.close()
        source.offset = 100_000
        sut.requery()
        #expect(!sut.isSettled)
        await gate.open()
        await sut.settle()

        #expect(sut.isSettled)
        #expect(sut.selected == Row(id: 100_000))
    }

    @Test("a new query cancels the one it replaces; a late answer to the old one is never shown")
    func requeryDropsTheOldQuery() async {
        let gate = Gate()
        let (sut, source) = makeSUT(total: 100, gate: gate)
        await gate.open()
        await sut.load()
        await gate.close()
        let arrived = await gate.arrivals

        source.offset = 1_000
        sut.requery()  // the old query: held at the gate
        await gate.waitForArrivals(arrived + 1)
        source.offset = 2_000
        sut.requery()  // the new one
        await gate.open()
        await sut.settle()

        #expect(sut.selected == Row(id: 2_000))
        #expect(sut.items.allSatisfy { $0.id >= 2_000 })
    }

    @Test("a new query forgets the old count at once: none is shown until the new one arrives")
    func requeryForgetsTheCount() async {
        let gate = Gate()
        let (sut, source) = makeSUT(total: 100, gate: gate)
        await gate.open()
        await sut.load()
        await gate.close()
        #expect(sut.count == .exactly(100))

        source.total = 8
        sut.requery()

        #expect(sut.count == nil)
        await gate.open()
        await sut.settle()
        #expect(sut.count == .exactly(8))
    }

    @Test("a short list is one page: no more reads however the selection moves")
    func shortList() async {
        let (sut, source) = makeSUT(total: 30)
        await sut.load()

        _ = await sut.handle(.end, pageSize: 20)
        _ = await sut.handle(.home, pageSize: 20)
        _ = await sut.handle(.pageDown, pageSize: 20)
        await sut.settle()

        #expect(source.pagesRead.count == 1)
        #expect(sut.selected == Row(id: 20))
        #expect(sut.count == .exactly(30))
    }

    // MARK: - Helpers

    /// With a gate, page reads wait while it is closed.
    private func makeSUT(total: Int, gate: Gate? = nil) -> (PagedList<Int, Row>, Source) {
        let source = Source(total: total)
        let sut = PagedList<Int, Row>(
            pageSize: 100,
            fetchPage: { position, limit in
                await gate?.wait()
                return source.page(position, limit)
            },
            fetchCount: {
                source.countsRead += 1
                return .success(.exactly(source.total))
            }
        )
        return (sut, source)
    }
}
