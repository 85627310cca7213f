import Testing

@testable import Presentation
@testable import TerminalUI

/// Colours as a config file names them, shown as the nearest a terminal has.
@Suite("Themes and colours")
struct ThemeTests {
    @Test(
        "names, numbers, #rrggbb and default; anything else is no colour",
        arguments: [
            ("default", ThemeColour.terminal), ("blue", .indexed(4)), ("Bright-Red", .indexed(9)), ("gray", .indexed(8)),
            ("0", .indexed(0)), ("255", .indexed(255)), ("#FF8000", .rgb(red: 255, green: 128, blue: 0)),
        ] as [(String, ThemeColour)])
    func parsing(text: String, colour: ThemeColour) {
        #expect(ThemeColour(parsing: text) == colour)
    }

    @Test("not colours", arguments: ["purpel", "256", "-1", "#12345", "#1234567", "#gg0000", "", "٣"])
    func notColours(text: String) {
        #expect(ThemeColour(parsing: text) == nil)
    }

    @Test(
        "the nearest colour a terminal of 8, 16 or 256 colours has",
        arguments: [
            (ThemeColour.rgb(red: 255, green: 0, blue: 0), 256, 196), (.rgb(red: 255, green: 0, blue: 0), 16, 9),
            (.rgb(red: 255, green: 0, blue: 0), 8, 1), (.rgb(red: 128, green: 128, blue: 128), 256, 244), (.indexed(196), 8, 1),
            (.indexed(12), 8, 4), (.indexed(12), 16, 12), (.indexed(153), 256, 153), (.rgb(red: 0, green: 0, blue: 0), 256, 16),
        ] as [(ThemeColour, Int, Int)])
    func nearest(colour: ThemeColour, count: Int, index: Int) {
        #expect(colour.index(among: count) == index)
    }

    @Test("every built-in theme draws every role; mono has no colour; the roles a file names are distinct")
    func builtIns() {
        for name in Theme.builtInNames {
            let theme = Theme.named(name)!
            #expect(theme.name == name)
            #expect(Style.allCases.allSatisfy { theme.entries[$0] != nil }, "\(name)")
        }
        #expect(Style.allCases.allSatisfy { !Theme.mono[$0].isColoured })
        #expect(Set(Theme.roles.map(\.name)).count == Theme.roles.count)
        #expect(Set(Theme.roles.map(\.style)).count == Theme.roles.count)
    }
}
