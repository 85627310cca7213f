import Testing
import TerminalUI

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

        init(total: Int) {
            self.total = total
        }

        func page(_ position: PagePosition<Int>, _ limit: Int) -> [PagedItem<Int, Row>] {
            pagesRead.append(position)
            let numbers: [Int]
            switch position {
            case .first: numbers = Array((0..<total).prefix(limit))
            case .last: numbers = Array((0..<total).suffix(limit))
            case .after(let key): numbers = Array((0..<total).filter { $0 * 10 > key }.prefix(limit))
            case .before(let key): numbers = Array((0..<total).filter { $0 * 10 < key }.suffix(limit))
            }
            return numbers.map { PagedItem(key: $0 * 10, item: Row(id: $0)) }
        }
    }

    @Test("moving down reads the next pages before they are needed and keeps at most three pages")
    func scrollsForwards() async {
        let (sut, source) = makeSUT(total: 10_000)
        await sut.load()

        for _ in 0..<1_000 {
            _ = sut.handle(.down, pageSize: 20)
            await settle()
        }

        #expect(sut.selected == Row(id: 1_000))
        #expect(sut.position == 1_000)
        #expect(sut.items.count <= 300)
        #expect(source.pagesRead.count < 20)
        #expect(!source.pagesRead.contains { if case .last = $0 { true } else { false } })
    }

    @Test("End reads the last page; PgUp and ↑ then walk back with the right positions")
    func endAndBack() async {
        let (sut, _) = makeSUT(total: 10_000)
        await sut.load()

        _ = sut.handle(.end, pageSize: 20)
        await settle()
        #expect(sut.selected == Row(id: 9_999))
        #expect(sut.position == 9_999)
        for _ in 0..<30 {
            _ = sut.handle(.pageUp, pageSize: 20)
            await settle()
        }

        #expect(sut.selected == Row(id: 9_399))
        #expect(sut.position == 9_399)
        #expect(sut.items.count <= 300)
        _ = sut.handle(.home, pageSize: 20)
        await settle()
        #expect(sut.selected == Row(id: 0))
        #expect(sut.position == 0)
    }

    @Test("End and Home move the window without counting the list again")
    func jumpsDoNotRecount() async {
        let (sut, source) = makeSUT(total: 10_000)
        await sut.load()

        _ = sut.handle(.end, pageSize: 20)
        await settle()
        _ = sut.handle(.home, pageSize: 20)
        await settle()

        #expect(source.countsRead == 1)
    }

    @Test("a refresh reads the window where it is and keeps the selected row")
    func refreshKeepsPlace() async {
        let (sut, source) = makeSUT(total: 10_000)
        await sut.load()
        for _ in 0..<250 {
            _ = sut.handle(.down, pageSize: 20)
            await settle()
        }
        source.pagesRead = []

        await sut.refresh()

        #expect(sut.selected == Row(id: 250))
        #expect(sut.position == 250)
        #expect(source.pagesRead.count == 2)  // the row before the window, then the window
    }

    @Test("a refresh asked while one is in flight runs again after it, so the newest data shows")
    func refreshWhileRefreshing() async {
        let gate = PageGate()
        let (sut, source) = makeSUT(total: 10, gate: gate)
        await sut.load()
        await gate.close()

        let first = Task { await sut.refresh() }
        while await gate.waiting == 0 { await Task.yield() }
        source.total = 12  // changes after the first refresh read
        await sut.refresh()  // returns at once: one is in flight
        await gate.open()
        await first.value

        #expect(sut.items.count == 12)
        #expect(sut.count == .exactly(12))
    }

    @Test("list keys pressed while the first page loads are applied when it arrives")
    func keysWhileLoading() async {
        let gate = PageGate()
        let (sut, _) = makeSUT(total: 10_000, gate: gate)
        await gate.close()
        let load = Task { await sut.load() }
        while await gate.waiting == 0 { await Task.yield() }

        #expect(sut.handle(.end, pageSize: 20))
        #expect(sut.handle(.up, pageSize: 20))
        #expect(!sut.handle(.character("x"), pageSize: 20))
        await gate.open()
        await load.value
        for _ in 0..<50 { await Task.yield() }

        #expect(sut.selected == Row(id: 9_998))
        #expect(sut.position == 9_998)
    }

    @Test("a short list is one page: no more reads however the selection moves")
    func shortList() async {
        let (sut, source) = makeSUT(total: 30)
        await sut.load()

        _ = sut.handle(.end, pageSize: 20)
        _ = sut.handle(.home, pageSize: 20)
        _ = sut.handle(.pageDown, pageSize: 20)
        await settle()

        #expect(source.pagesRead.count == 1)
        #expect(sut.selected == Row(id: 20))
        #expect(sut.count == .exactly(30))
    }

    // MARK: - Helpers

    /// With a gate, page reads wait while it is closed.
    private func makeSUT(total: Int, gate: PageGate? = nil) -> (PagedList<Int, Row>, Source) {
        let source = Source(total: total)
        let sut = PagedList<Int, Row>(
            pageSize: 100,
            fetchPage: { position, limit in
                await gate?.pass()
                return .success(source.page(position, limit))
            },
            fetchCount: {
                source.countsRead += 1
                return .success(.exactly(source.total))
            }
        )
        return (sut, source)
    }

    /// Lets the fetches the list started run.
    private func settle() async {
        for _ in 0..<20 { await Task.yield() }
    }
}

/// Holds page reads while closed.
actor PageGate {
    private var isOpen = true
    private var continuations: [CheckedContinuation<Void, Never>] = []
    var waiting: Int { continuations.count }

    func close() { isOpen = false }

    func open() {
        isOpen = true
        continuations.forEach { $0.resume() }
        continuations.removeAll()
    }

    func pass() async {
        if isOpen { return }
        await withCheckedContinuation { continuations.append($0) }
    }
}
