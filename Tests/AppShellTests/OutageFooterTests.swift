import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import AppShell

/// A screen that works offline with four keys in its footer, each with a short label (as a
/// card's grades: `a 10m`).
@MainActor
final class GradesProbe: Screen {
    static let grades = ["a", "h", "g", "e"].map { KeyDeclaration($0, "grade \($0)", help: "grade", action: "probe.\($0)") }
    /// Whether its keys have short labels (a card's grades do; a list's keys do not).
    let short: Bool

    init(short: Bool = true) {
        self.short = short
    }

    var keys: [KeyDeclaration] { Self.grades }
    func footerShortLabel(of key: KeyDeclaration) -> LocalizedText? { short ? "10m" : nil }
    func draw(in canvas: inout some Canvas, frame: Frame) {}
    func handle(_ event: InputEvent) async -> EventResult { .ignored }
}

@Suite("The footer while the server is out of reach")
@MainActor
struct OutageFooterTests {
    func footer(width: Int, keys: Bool, short: Bool = true) -> String {
        let screen: any Screen = keys ? GradesProbe(short: short) : ScreenProbe("none")
        var canvas = TextCanvas(size: Size(width: width, height: 24))
        let content = FrameChrome.Content(
            screen: screen, coordinator: nil, isSignedIn: true, userName: "Demo Learner",
            outage: "Cannot reach 127.0.0.1:8811 — retrying in \(2)s", shortOutage: "Offline — retrying in \(2)s",
            place: "127.0.0.1:8811 ⚠", bindings: KeyBindings.none)
        _ = FrameChrome(clock: ShellClock(ManualClock())).draw(content, in: &canvas, tick: 0)
        return canvas.lines[23]
    }

    @Test("a screen's keys keep their room at 80 columns: the countdown goes without the host, which the header names")
    func keysKeepTheirRoom() {
        let line = footer(width: 80, keys: true)
        #expect(line.hasPrefix(" ✗ Offline — retrying in 2s"), "\(line)")
        for key in ["a", "h", "g", "e"] { #expect(line.contains(" \(key) 10m") || line.contains(" \(key) grade \(key)"), "\(line)") }
    }

    @Test("where there is room, or no key needs it, or the keys are a list's (no short labels), SPEC's words name the host")
    func hostWhereRoom() {
        #expect(footer(width: 160, keys: true).hasPrefix(" ✗ Cannot reach 127.0.0.1:8811 — retrying in 2s"))
        #expect(footer(width: 80, keys: false).hasPrefix(" ✗ Cannot reach 127.0.0.1:8811 — retrying in 2s"))
        #expect(footer(width: 60, keys: true, short: false).hasPrefix(" ✗ Cannot reach 127.0.0.1:8811 — retrying in 2s"))
    }

    @Test("--accessible: the header says offline in words, which a screen reader says as they mean, never ⚠")
    func accessibleWords() {
        var canvas = AccessibleCanvas(TextCanvas(size: Size(width: 100, height: 24)))
        let content = FrameChrome.Content(
            screen: ScreenProbe("none"), coordinator: nil, isSignedIn: true, userName: "Demo Learner",
            outage: "Cannot reach 127.0.0.1:8811 — retrying in \(2)s", shortOutage: "Offline — retrying in \(2)s",
            place: StoreLabel.server(host: "127.0.0.1:8811").status(isReconnecting: true, words: ("online", "offline")),
            placeIsServer: true,
            bindings: KeyBindings.none)
        _ = FrameChrome(clock: ShellClock(ManualClock())).draw(content, in: &canvas, tick: 0)
        let header = canvas.base.lines[0]
        #expect(header.contains(":8811 offline · Demo Learner"), "\(header)")
        #expect(!header.contains("⚠"))
    }
}
