@testable import Favourites
import SharedKernel
import Testing
import TestSupport
import TerminalUI

@Suite("Favourites")
@MainActor
struct FavouritesTests {
    static let courses = [Course.fixture(id: "a", title: "Alpha"), .fixture(id: "b", title: "Beta")]

    @Test("toggle marks, then unmarks, for the signed-in learner")
    func toggle() async throws {
        let repository = FavouritesRepositorySpy(courses: Self.courses)
        let sut = ToggleFavouriteUseCase(session: SessionRepositoryStub.demo, favourites: repository)

        #expect(try await sut.execute(courseID: "a"))
        #expect(try await !sut.execute(courseID: "a"))
        #expect(await repository.messages == [.toggle(userID: User.demo.id, courseID: "a"), .toggle(userID: User.demo.id, courseID: "a")])
    }

    @Test("nobody signed in: toggling is refused and nothing is written")
    func toggleSignedOut() async {
        let repository = FavouritesRepositorySpy(courses: Self.courses)
        let sut = ToggleFavouriteUseCase(session: SessionRepositoryStub.signedOut, favourites: repository)

        await #expect(throws: AppError.notSignedIn) { try await sut.execute(courseID: "a") }
        #expect(await repository.messages == [])
    }

    @Test("the list loads the learner's favourites")
    func list() async throws {
        let repository = FavouritesRepositorySpy(courses: Self.courses, favourites: ["b"])
        let sut = LoadFavouritesUseCase(session: SessionRepositoryStub.demo, favourites: repository)

        #expect(try await sut.execute().map(\.id) == ["b"])
        #expect(await repository.messages == [.favourites(userID: User.demo.id)])
    }

    @Test("tab 3 lists favourites with ★; f removes one and the empty state follows")
    func screen() async {
        let (screen, viewModel, repository) = makeSUT(favourites: ["a"])
        await viewModel.rows.load()

        let lines = draw(screen).lines
        #expect(lines[1].hasPrefix(" Favourites  1 course"))
        #expect(lines[3].hasPrefix(" ★  Alpha"))

        #expect(screen.handle(.char("f")) == .handled)
        for _ in 0..<10_000 where viewModel.rows.state != .empty {
            await Task.yield()
        }

        #expect(await repository.messages.contains(.toggle(userID: User.demo.id, courseID: "a")))
        #expect(viewModel.rows.state == .empty)
        #expect(draw(screen).text.contains("No favourites yet"))
        #expect(screen.statusMessage == StatusMessage("Removed Alpha from favourites", kind: .success))
    }

    @Test("Enter opens the selected favourite")
    func enterOpens() async {
        var opened: [CourseID] = []
        let repository = FavouritesRepositorySpy(courses: Self.courses, favourites: ["a", "b"])
        let viewModel = FavouritesViewModel(
            load: LoadFavouritesUseCase(session: SessionRepositoryStub.demo, favourites: repository),
            toggle: ToggleFavouriteUseCase(session: SessionRepositoryStub.demo, favourites: repository)
        )
        let screen = FavouritesScreen(viewModel: viewModel) { opened.append($0) }
        await viewModel.rows.load()

        _ = screen.handle(.key(.down))
        _ = screen.handle(.key(.enter))

        #expect(opened == ["b"])
    }

    // MARK: - Helpers

    private func makeSUT(favourites: Set<CourseID>) -> (FavouritesScreen, FavouritesViewModel, FavouritesRepositorySpy) {
        let repository = FavouritesRepositorySpy(courses: Self.courses, favourites: favourites)
        let viewModel = FavouritesViewModel(
            load: LoadFavouritesUseCase(session: SessionRepositoryStub.demo, favourites: repository),
            toggle: ToggleFavouriteUseCase(session: SessionRepositoryStub.demo, favourites: repository)
        )
        return (FavouritesScreen(viewModel: viewModel, onCourseSelected: { _ in }), viewModel, repository)
    }

    private func draw(_ screen: FavouritesScreen) -> TextCanvas {
        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        return canvas
    }
}
