import Testing
import TerminalUI

@Suite("Loadable list")
@MainActor
struct LoadableListTests {
    struct Row: Identifiable, Equatable, Sendable {
        let id: Int
    }

    /// What the fetch answers; a class, so the test can change it between loads.
    @MainActor
    final class Source {
        var answer: Result<[Row], ListLoadError>
        weak var list: LoadableList<Row>?
        var loadingSeen: [Bool] = []

        init(_ answer: Result<[Row], ListLoadError>) {
            self.answer = answer
        }

        init(rows: [Row]) {
            self.answer = .success(rows)
        }
    }

    @Test("idle → loaded, empty, or error with the message")
    func states() async {
        let source = Source(.success([Row(id: 1)]))
        let sut = LoadableList<Row> { source.answer }
        #expect(sut.state == .idle)

        await sut.load()
        #expect(sut.state == .loaded([Row(id: 1)]))

        source.answer = .success([])
        await sut.load()
        #expect(sut.state == .empty)

        source.answer = .failure(ListLoadError(message: "No network"))
        await sut.load()
        #expect(sut.state == .error(message: "No network"))
    }

    @Test("the selected item stays selected when rows before it disappear")
    func keepsSelectionByID() async {
        let source = Source(rows: (1...5).map(Row.init))
        let sut = LoadableList<Row> { source.answer }
        await sut.load()
        _ = sut.handle(.end, pageSize: 10)

        source.answer = .success((3...5).map(Row.init))
        await sut.load()

        #expect(sut.selected == Row(id: 5))
        #expect(sut.selection.selectedIndex == 2)
    }

    @Test("when the selected item is gone, the selection stays in range")
    func clampsSelection() async {
        let source = Source(rows: (1...5).map(Row.init))
        let sut = LoadableList<Row> { source.answer }
        await sut.load()
        _ = sut.handle(.end, pageSize: 10)

        source.answer = .success([Row(id: 1), Row(id: 2)])
        await sut.refresh()

        #expect(sut.selected == Row(id: 2))
    }

    @Test("a refresh never shows the loading state")
    func refreshIsSilent() async {
        let source = Source(rows: [Row(id: 1)])
        let sut = LoadableList<Row> {
            source.loadingSeen.append(source.list?.state.isLoading ?? false)
            return source.answer
        }
        source.list = sut
        await sut.load()

        await sut.refresh()

        #expect(source.loadingSeen == [true, false])
    }

    @Test("appearing loads the first time and refreshes silently after")
    func appear() async {
        let source = Source(rows: [Row(id: 1)])
        let sut = LoadableList<Row> {
            source.loadingSeen.append(source.list?.state.isLoading ?? false)
            return source.answer
        }
        source.list = sut

        await sut.appear()
        source.answer = .success([Row(id: 1), Row(id: 2)])
        await sut.appear()

        #expect(source.loadingSeen == [true, false])
        #expect(sut.items == [Row(id: 1), Row(id: 2)])
    }
}
