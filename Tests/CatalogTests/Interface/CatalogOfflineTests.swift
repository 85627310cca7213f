import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Catalog

/// Remote mode with the server out of reach: the catalog lists the courses saved on the
/// terminal and says so, searching them as the store would.
@Suite("Catalog offline")
@MainActor
struct CatalogOfflineTests {
    static let saved = [
        Course.fixture(id: "docker", title: "Docker Essentials", instructor: "İlker Yılmaz"),
        Course.fixture(id: "agile", title: "Agile and Scrum", instructor: "Daniel Okafor"),
    ]

    @Test("the title line says the saved courses are searched; a search says how many of them match")
    func savedCourses() async {
        let offline = SavedCount()
        let viewModel = CatalogListViewModel(
            courses: InMemoryStore(courses: Self.saved), learner: LearnerStub().learner, savedSearch: { offline.count })
        let screen = CatalogListScreen(viewModel: viewModel, onCourseSelected: { _ in })
        screen.appear()
        await screen.settle()
        #expect(draw(screen).lines[1].hasPrefix(" Catalog  Offline — searching 2 saved courses"), "\(draw(screen).lines[1])")

        _ = await screen.handle(.char("/"))
        _ = await screen.handle(.char("d"))
        _ = await screen.handle(.char("o"))
        _ = await screen.handle(.char("c"))
        await screen.settle()
        #expect(draw(screen).lines[1].hasSuffix("1 of 2 saved  1/1"), "\(draw(screen).lines[1])")

        // The server answers again: its words.
        offline.count = nil
        _ = await screen.handle(.key(.escape))
        await screen.settle()
        #expect(draw(screen).lines[1].hasPrefix(" Catalog  2 courses"), "\(draw(screen).lines[1])")
    }

    @Test("the server back between two pages: the list is read again from the top, the places of the two not being comparable")
    func sourceFlipsMidScroll() async {
        let offline = SavedCount()
        let store = InMemoryStore(courses: Self.saved)
        let viewModel = CatalogListViewModel(
            courses: store, learner: LearnerStub().learner, pageSize: 1, savedSearch: { offline.count })
        let screen = CatalogListScreen(viewModel: viewModel, onCourseSelected: { _ in })
        screen.appear()
        await screen.settle()
        let before = await store.messages.count
        offline.count = nil
        _ = await screen.handle(.key(.down))
        await screen.settle()
        let pages = await store.messages.dropFirst(before).filter {
            if case .page = $0 { true } else { false }
        }
        let firstAgain = pages.contains {
            if case .page(_, .first, _) = $0 { true } else { false }
        }
        #expect(firstAgain, "the list read again from the top: \(pages)")
    }
}

@MainActor
private final class SavedCount {
    var count: Int? = 2
}
