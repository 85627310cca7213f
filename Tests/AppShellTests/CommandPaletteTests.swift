import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import AppShell

/// `:` or `Ctrl-P`: every action that can be asked now, found by typing part of it, run with
/// `Enter` as its key would.
@Suite("Shell: the command palette")
@MainActor
final class CommandPaletteTests {
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    @Test("on every tab, each action the screen offers now, and the global ones, is in the palette; those that cannot act, with why")
    func everyActionReachable() async throws {
        let (sut, _) = await makeSignedIn()
        var explained = 0
        for tab: Character in ["1", "2", "3", "4", "5"] {
            sut.enqueue([.char(tab)])
            await sut.settle()
            let screen = try #require(sut.frontScreen)
            let names = Set(sut.actions(on: screen).paletteItems().map(\.name))
            let offered = screen.keys.filter { screen.availability(of: $0) == .available }.flatMap(\.actions).map(\.name)
            #expect(Set(offered).isSubset(of: names), "tab \(tab): \(Set(offered).subtracting(names))")
            #expect(names.isSuperset(of: ["global.help", "global.quit", "tab.1", "tab.5"]), "tab \(tab)")
            let items = sut.actions(on: screen).paletteItems()
            for declaration in screen.keys {
                guard case .unavailable(let reason) = screen.availability(of: declaration) else { continue }
                for action in declaration.actions {
                    #expect(items.contains { $0.name == action.name && $0.unavailable == reason.english }, "tab \(tab): \(action.name)")
                    explained += 1
                }
            }
        }
        #expect(explained > 0, "some tab has an action that cannot act now")
    }

    @Test("each title says what its action does once: no label before its own word again (Sort: sort, Page: page up)")
    func noStutter() async throws {
        let (sut, _) = await makeSignedIn()
        var titles: [String] = []
        for tab: Character in ["1", "2", "3", "4", "5"] {
            sut.enqueue([.char(tab)])
            await sut.settle()
            let screen = try #require(sut.frontScreen)
            titles += sut.actions(on: screen).paletteItems().map(\.title)
        }
        #expect(titles.contains("Sort by the next order") && titles.contains("Reverse the order"), "\(titles)")
        #expect(titles.contains("Move up") && titles.contains("Page down") && titles.contains("Last row"), "\(titles)")
        for title in titles {
            let words = title.lowercased().split { !$0.isLetter }
            #expect(zip(words, words.dropFirst()).allSatisfy { $0 != $1 }, "a word twice in a row: \(title)")
            if let colon = title.firstIndex(of: ":") {
                let label = title[..<colon].lowercased()
                #expect(!title[colon...].lowercased().contains(label), "the label again after it: \(title)")
            }
        }
    }

    @Test("what can run comes first, the global actions included; what cannot comes last, its reason whole, wrapped in the box")
    func unavailableLast() async throws {
        let (sut, _) = await makeSignedIn()
        var seen = 0
        for tab: Character in ["1", "2", "3", "4", "5"] {
            sut.enqueue([.char(tab)])
            await sut.settle()
            let screen = try #require(sut.frontScreen)
            let items = sut.actions(on: screen).paletteItems()
            let firstUnavailable = items.firstIndex { $0.unavailable != nil } ?? items.count
            #expect(items[firstUnavailable...].allSatisfy { $0.unavailable != nil }, "tab \(tab): \(items.map(\.name))")
            #expect(items[..<firstUnavailable].contains { $0.name == "global.quit" }, "tab \(tab)")
            guard let last = items.last, let reason = last.unavailable else { continue }
            seen += 1
            // The last item selected: its title and reason show whole, over as many rows as they need.
            sut.enqueue([.char(":"), .key(.pageDown), .key(.pageDown), .key(.pageDown), .key(.pageDown)])
            await sut.settle()
            let boxText = frame(sut).components(separatedBy: "\n").filter { $0.contains("│") }
                .map { line in line.split(separator: "│").dropFirst().first.map(String.init) ?? "" }
                .joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(
                boxText.contains("\(last.title) — \(reason)".split(whereSeparator: \.isWhitespace).joined(separator: " ")),
                "tab \(tab): \(boxText)")
            sut.enqueue([.key(.escape)])
            await sut.settle()
        }
        #expect(seen > 0, "some tab has an action that cannot run now")
    }

    @Test("a refused config file: the header keeps a mark, ? and the palette's first item give the whole reason, wrapped; mended, all goes")
    func settingsProblem() async throws {
        let (sut, _) = await makeSignedIn()
        let reason: LocalizedText =
            "/home/ana/.config/edugo/config.toml:3: theme.nmae: is not a setting here (the theme's are name, accent, selection, header, key, error)"
        sut.settingsProblem = reason
        #expect(frame(sut).components(separatedBy: "\n")[0].hasSuffix("✗ settings"))
        let screen = try #require(sut.frontScreen)
        #expect(sut.actions(on: screen).paletteItems().first?.title == "Show settings problem")

        sut.enqueue([.key(.control("p")), .key(.enter)])
        await sut.settle()
        let help = frame(sut).components(separatedBy: "\n")
        #expect(help.contains { $0.contains("Settings not applied: those before stay in force") })
        let words = help.joined(separator: " ").split(whereSeparator: { $0.isWhitespace || $0 == "│" }).joined(separator: " ")
        #expect(words.contains(reason.english), "\(help.joined(separator: "\n"))")

        sut.enqueue([.key(.escape)])
        sut.settingsProblem = nil
        await sut.settle()
        #expect(!frame(sut).contains("✗ settings"))
        #expect(sut.actions(on: screen).paletteItems().first?.title != "Show settings problem")
    }

    @Test("typed to, then Enter: the action runs as its key would; Esc closes it; it opens with : or Ctrl-P")
    func runs() async {
        let (sut, store) = await makeSignedIn()
        sut.enqueue([.char(":")])
        await sut.settle()
        #expect(frame(sut).contains("┌─ Actions"))
        sut.enqueue([.key(.escape)])
        await sut.settle()
        #expect(!frame(sut).contains("┌─ Actions"))

        sut.enqueue([.key(.control("p")), .char("m"), .char("a"), .char("r"), .char("k")])
        await sut.settle()
        let lines = frame(sut).components(separatedBy: "\n")
        #expect(lines.contains { $0.contains(": mark") })
        #expect(lines.contains { $0.contains("Mark or unmark as a favourite ★") }, "\(lines.joined(separator: "\n"))")
        sut.enqueue([.key(.enter)])
        await sut.settle()
        #expect(!frame(sut).contains("┌─ Actions"))
        #expect(await store.storedFavourites(of: User.demo.id).contains("agile"), "the first course, favourited")
    }

    private func makeSignedIn() async -> (ShellController, InMemoryStore) {
        let store = InMemoryStore(courses: ShellControllerTests.courses, signedIn: User.demo.id)
        let sut = ShellController(ports: ShellControllerTests.ports(store), clock: ShellClock(ManualClock()))
        leaks.track(sut)
        sut.terminalSize = Size(width: 80, height: 24)
        await sut.start()
        await sut.settle()
        return (sut, store)
    }

    private func frame(_ sut: ShellController) -> String {
        sut.syncVisibleScreen()
        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        _ = sut.draw(in: &canvas, tick: 0)
        return canvas.text
    }
}
