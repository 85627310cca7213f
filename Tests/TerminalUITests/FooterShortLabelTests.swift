import Presentation
import SharedKernel
import Testing

@testable import TerminalUI

@Suite("TerminalUI: the footer's shorter labels")
struct FooterShortLabelTests {
    static let hints = [
        KeyHint("a", "again 10m", short: "10m"), KeyHint("h", "hard 1d", short: "1d"), KeyHint("g", "good 3d", short: "3d"),
        KeyHint("e", "easy 9d", short: "9d"), KeyHint("m", "memory"), KeyHint("r", "reload"),
    ]

    func row(width: Int) -> String {
        var canvas = TextCanvas(size: Size(width: width, height: 1))
        Footer.draw(in: &canvas, row: 0, hints: Self.hints, status: nil, pinned: KeyHint("?", "help"), texts: .english)
        return canvas.lines[0]
    }

    @Test("where the hints with a shorter label fit whole, they keep their words; the keys after them may drop")
    func whole() {
        #expect(row(width: 80).hasPrefix(" a again 10m  h hard 1d  g good 3d  e easy 9d  m memory  r reload"))
        #expect(row(width: 58).hasPrefix(" a again 10m  h hard 1d  g good 3d  e easy 9d"))
        #expect(!row(width: 58).contains("reload"))
    }

    @Test("where they do not, they all take their shorter label, so none is lost")
    func short() {
        #expect(row(width: 46).hasPrefix(" a 10m  h 1d  g 3d  e 9d  m memory"))
    }
}
