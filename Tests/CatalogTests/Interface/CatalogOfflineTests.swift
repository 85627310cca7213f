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
}

@MainActor
private final class SavedCount {
    var count: Int? = 2
}
