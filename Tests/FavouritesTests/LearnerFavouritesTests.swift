import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Favourites

@Suite("The learner's favourites")
@MainActor
final class LearnerFavouritesTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    static let alpha = Course.fixture(id: "a", title: "Alpha")
    static let beta = Course.fixture(id: "b", title: "Beta")

    @Test("f shows ★ at once, marked as saving, then confirmed with a message")
    func togglesAtOnce() async {
        let gate = Gate()
        let (sut, store, reports) = await makeSUT()
        await store.setGate(gate)

        let toggle = sut.toggle(Self.beta)
        #expect(sut.isFavourite("b"), "shown before toggle returned")
        #expect(sut.isSaving("b"))
        #expect(sut.courses.map(\.id) == ["b"])
        await gate.waitForArrivals(1)
        await gate.open()
        await toggle.value

        #expect(reports.messages == [.success("Added Beta to favourites")])
        #expect(!sut.isSaving("b"))
        #expect(await store.storedFavourites(of: User.demo.id) == ["b"])
    }

    @Test("f f f in a burst ends in the state the last f asked for, on screen and in the store, with a message that says so")
    func burst() async {
        let gate = Gate()
        let (sut, store, reports) = await makeSUT()
        await store.setGate(gate)

        let first = sut.toggle(Self.alpha)
        await gate.waitForArrivals(1)
        sut.toggle(Self.alpha)
        let third = sut.toggle(Self.alpha)
        await gate.open()
        await third.value
        await first.value

        #expect(reports.messages == [.success("Added Alpha to favourites")], "one message, for the last state asked for")
        #expect(sut.isFavourite("a"))
        #expect(await store.storedFavourites(of: User.demo.id) == ["a"])
    }

    @Test("a failed save undoes the ★ and says why")
    func failure() async {
        let (sut, store, reports) = await makeSUT()
        await store.setFailure(.storage(.saving, detail: "disk"))

        await sut.toggle(Self.alpha).value

        #expect(reports.messages == [.error("Something went wrong while saving your data.")])
        #expect(!sut.isFavourite("a"))
        #expect(!sut.isSaving("a"))
    }

    @Test("a favourite changed elsewhere is read afresh, that course alone")
    func storeChangedElsewhere() async {
        let (sut, store, _) = await makeSUT()
        await store.arrangeFavourite(true, User.demo.id, "b")
        let before = await store.messages.count

        await sut.storeChanged("b")

        #expect(sut.isFavourite("b"))
        #expect(sut.courses.map(\.id) == ["b"])
        #expect(Array(await store.messages.dropFirst(before)) == [.favourite(User.demo.id, "b")])
        await store.arrangeFavourite(false, User.demo.id, "b")
        await sut.storeChanged("b")
        #expect(sut.courses == [])
    }

    @Test("news that comes while this terminal saves is read once the save has answered, so the store orders them")
    func storeChangedDuringASave() async {
        let gate = Gate()
        let (sut, store, _) = await makeSUT()
        await store.arrangeFavourite(true, User.demo.id, "a")
        await sut.refresh()
        await store.setGate(gate)
        let toggle = sut.toggle(Self.beta)
        await gate.waitForArrivals(1)
        await store.arrangeFavourite(false, User.demo.id, "a")

        await sut.storeChanged("a")
        #expect(sut.isFavourite("a"), "not read while the save is under way")
        await gate.open()
        await toggle.value

        #expect(!sut.isFavourite("a"))
        #expect(sut.isFavourite("b"))
    }

    // MARK: - Helpers

    @Test("before the list is loaded, a page's glimpse reads which of its courses are favourites; f then shows and stays")
    func glimpseBeforeTheList() async {
        let store = InMemoryStore(courses: [Self.alpha, Self.beta])
        try? await store.setFavourite(true, userID: User.demo.id, courseID: "a")
        let sut = LearnerFavourites(learner: User.demo.id, favourites: store)
        leaks.track(sut)

        await sut.glimpse(["a", "b"])
        await sut.glimpse(["a"])
        #expect(sut.isFavourite("a") && !sut.isFavourite("b"))
        #expect(sut.state.value == nil, "the whole list is not read")
        await sut.toggle(Self.beta).value
        #expect(sut.isFavourite("b"), "confirmed before the list is loaded")
        try? await store.setFavourite(false, userID: User.demo.id, courseID: "a")  // another terminal
        await sut.storeChanged("a")
        #expect(!sut.isFavourite("a"), "news of a course glimpsed reads it again")

        let glimpses = await store.messages.compactMap { message -> Set<CourseID>? in
            guard case .favouritesAmong(_, let ids) = message else { return nil }
            return Set(ids)
        }
        #expect(glimpses == [["a", "b"], ["a"]])
        await sut.load()
        #expect(sut.courses.map(\.id) == ["b"])
    }

    @Test("reading again before the list is loaded reads every course glimpsed, however many, 200 to an ask")
    func readAgainEveryGlimpse() async {
        let courses = (0..<450).map { Course.fixture(id: CourseID("c\($0)"), title: "Course \($0)") }
        let store = InMemoryStore(courses: courses)
        let sut = LearnerFavourites(learner: User.demo.id, favourites: store)
        leaks.track(sut)
        let ids = courses.map(\.id)
        for start in stride(from: 0, to: 450, by: 150) { await sut.glimpse(Array(ids[start..<start + 150])) }
        #expect(!sut.isFavourite("c420"))

        try? await store.setFavourite(true, userID: User.demo.id, courseID: "c420")  // news missed
        try? await store.setFavourite(true, userID: User.demo.id, courseID: "c10")
        await sut.readAgain()

        #expect(sut.isFavourite("c420") && sut.isFavourite("c10"))
        let asks = await store.messages.compactMap { message -> [CourseID]? in
            guard case .favouritesAmong(_, let ids) = message else { return nil }
            return ids
        }
        #expect(asks.map(\.count) == [150, 150, 150, 200, 200, 50])
        #expect(Set(asks.suffix(3).joined()) == Set(ids), "every course glimpsed, once")
        #expect(sut.state.value == nil, "the whole list is not read")
    }

    private func makeSUT() async -> (LearnerFavourites, InMemoryStore, Reports) {
        let store = InMemoryStore(courses: [Self.alpha, Self.beta])
        let reports = Reports()
        let sut = LearnerFavourites(learner: User.demo.id, favourites: store, report: { reports.messages.append($0) })
        leaks.track(sut)
        await sut.load()
        return (sut, store, reports)
    }
}

/// What a model reported, in order.
@MainActor
final class Reports {
    var messages: [StatusMessage] = []
}

@Suite("Favourites tab")
@MainActor
struct FavouritesScreenTests {
    @Test("the favourites are listed in catalog order with their ★; f removes the selected one at once")
    func listAndRemove() async {
        let store = InMemoryStore(courses: [
            .fixture(id: "b", title: "Beta", instructor: "Bo"), .fixture(id: "a", title: "Alpha", instructor: "Ann"),
        ])
        try? await store.setFavourite(true, userID: User.demo.id, courseID: "a")
        try? await store.setFavourite(true, userID: User.demo.id, courseID: "b")
        let reports = Reports()
        let feature = FavouritesFeature(learner: User.demo.id, favourites: store, report: { reports.messages.append($0) })
        let sut = feature.makeFavouritesScreen(onCourseSelected: { _ in })
        sut.appear()
        await sut.settle()

        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        sut.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        #expect(
            Array(canvas.lines[1...4]) == [
                " Favourites  2 courses                                                      1/2",
                "    Title  Instructor  Level             Price",
                " ★  Alpha  Ann         Beginner      35.99 EUR",
                " ★  Beta   Bo          Beginner      35.99 EUR",
            ])
        _ = await sut.handle(.char("f"))
        await sut.settle()

        #expect(feature.count == 1)
        #expect(reports.messages == [.success("Removed Alpha from favourites")])
        #expect(await store.storedFavourites(of: User.demo.id) == ["b"])
    }

    @Test("f f in one burst removes two courses: the second f acts on the row that came up")
    func removeBurst() async {
        let store = InMemoryStore(courses: [
            .fixture(id: "a", title: "Alpha"), .fixture(id: "b", title: "Beta"), .fixture(id: "c", title: "Gamma"),
        ])
        for id in ["a", "b", "c"] { try? await store.setFavourite(true, userID: User.demo.id, courseID: CourseID(id)) }
        let gate = Gate()
        let feature = FavouritesFeature(learner: User.demo.id, favourites: store, report: { _ in })
        let sut = feature.makeFavouritesScreen(onCourseSelected: { _ in })
        sut.appear()
        await sut.settle()
        await store.setGate(gate)

        for event in [InputEvent.char("j"), .char("f"), .char("f")] { _ = await sut.handle(event) }
        await gate.open()
        await sut.settle()

        #expect(await store.storedFavourites(of: User.demo.id) == ["a"])
    }

    @Test("no favourites says how to add one")
    func empty() async {
        let sut = FavouritesFeature(learner: User.demo.id, favourites: InMemoryStore(), report: { _ in }).makeFavouritesScreen(
            onCourseSelected: { _ in })
        sut.appear()
        await sut.settle()

        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        sut.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        #expect(canvas.text.contains("No favourites yet"))
        #expect(canvas.text.contains("Press f on a course in the catalog"))
    }
}
