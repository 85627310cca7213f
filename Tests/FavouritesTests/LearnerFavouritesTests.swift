@testable import Favourites
import Foundation
import SharedKernel
import Testing
import TestSupport
import TerminalUI

@Suite("The learner's favourites")
@MainActor
struct LearnerFavouritesTests {
    static let alpha = Course.fixture(id: "a", title: "Alpha")
    static let beta = Course.fixture(id: "b", title: "Beta")

    @Test("f shows ★ at once, marked as saving, then confirmed with a message")
    func togglesAtOnce() async {
        let gate = Gate()
        let (sut, store) = await makeSUT()
        await store.setGate(gate)

        let toggle = Task { await sut.toggle(Self.beta) }
        await gate.waitForArrivals(1)
        #expect(sut.isFavourite("b"))
        #expect(sut.isSaving("b"))
        #expect(sut.courses.map(\.id) == ["b"])
        await gate.open()

        #expect(await toggle.value == .success("Added Beta to favourites"))
        #expect(!sut.isSaving("b"))
        #expect(await store.storedFavourites(of: User.demo.id) == ["b"])
    }

    @Test("f f f in a burst ends in the state the last f asked for, on screen and in the store, with a message that says so")
    func burst() async {
        let gate = Gate()
        let (sut, store) = await makeSUT()
        await store.setGate(gate)

        let first = Task { await sut.toggle(Self.alpha) }
        await gate.waitForArrivals(1)
        let second = await sut.toggle(Self.alpha)
        let third = await sut.toggle(Self.alpha)
        await gate.open()

        #expect(second == nil)
        #expect(third == nil)
        #expect(await first.value == .success("Added Alpha to favourites"))
        #expect(sut.isFavourite("a"))
        #expect(await store.storedFavourites(of: User.demo.id) == ["a"])
    }

    @Test("a failed save undoes the ★ and says why")
    func failure() async {
        let (sut, store) = await makeSUT()
        await store.setFailure(.storage(.saving, detail: "disk"))

        let answer = await sut.toggle(Self.alpha)

        #expect(answer == .error("Something went wrong while saving your data."))
        #expect(!sut.isFavourite("a"))
        #expect(!sut.isSaving("a"))
    }

    // MARK: - Helpers

    private func makeSUT() async -> (LearnerFavourites, InMemoryStore) {
        let store = InMemoryStore(courses: [Self.alpha, Self.beta])
        let sut = LearnerFavourites(learner: User.demo.id, favourites: store)
        await sut.load()
        return (sut, store)
    }
}

@Suite("Favourites tab")
@MainActor
struct FavouritesScreenTests {
    @Test("the favourites are listed in catalog order with their ★; f removes the selected one at once")
    func listAndRemove() async {
        let store = InMemoryStore(courses: [.fixture(id: "b", title: "Beta", instructor: "Bo"), .fixture(id: "a", title: "Alpha", instructor: "Ann")])
        try? await store.setFavourite(true, userID: User.demo.id, courseID: "a")
        try? await store.setFavourite(true, userID: User.demo.id, courseID: "b")
        let feature = FavouritesFeature(learner: User.demo.id, favourites: store)
        let sut = feature.makeFavouritesScreen(onCourseSelected: { _ in })
        sut.appear()
        await sut.settle()

        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        sut.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        #expect(Array(canvas.lines[1...4]) == [
            " Favourites  2 courses                                                      1/2",
            "    Title                                       Instructor                Price",
            " ★  Alpha                                       Ann                   35.99 EUR",
            " ★  Beta                                        Bo                    35.99 EUR",
        ])
        _ = await sut.handle(.char("f"))
        await sut.settle()

        #expect(feature.count == 1)
        #expect(sut.statusMessage == .success("Removed Alpha from favourites"))
        #expect(await store.storedFavourites(of: User.demo.id) == ["b"])
    }

    @Test("no favourites says how to add one")
    func empty() async {
        let sut = FavouritesFeature(learner: User.demo.id, favourites: InMemoryStore()).makeFavouritesScreen(onCourseSelected: { _ in })
        sut.appear()
        await sut.settle()

        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        sut.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        #expect(canvas.text.contains("No favourites yet"))
        #expect(canvas.text.contains("Press f on a course in the catalog"))
    }
}
