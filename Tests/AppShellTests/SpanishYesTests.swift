import Presentation
import SharedKernel
import TerminalUI
import Testing

@testable import AppShell

/// A screen asking a y/n question, or not, with a key of its own on `s`.
@MainActor
final class QuestionProbe: Screen {
    var asking: Bool
    static let sort = KeyDeclaration("s", "sort", help: "the next order", action: "probe.sort")

    init(asking: Bool) {
        self.asking = asking
    }

    var keys: [KeyDeclaration] { [Self.sort, YesNoQuestion.yes, YesNoQuestion.no] }
    func availability(of key: KeyDeclaration) -> KeyAvailability {
        switch key {
        case YesNoQuestion.yes, YesNoQuestion.no: asking ? .available : .dormant
        default: asking ? .dormant : .available
        }
    }
    func draw(in canvas: inout some Canvas, frame: Frame) {}
    func handle(_ event: InputEvent) async -> EventResult { .ignored }
}

/// A screen that never asks and calls every key available, as the catalog list does with rows.
@MainActor
final class NoQuestionProbe: Screen {
    var keys: [KeyDeclaration] { [QuestionProbe.sort] }
    func draw(in canvas: inout some Canvas, frame: Frame) {}
    func handle(_ event: InputEvent) async -> EventResult { .ignored }
}

@Suite("A y/n question in Spanish takes s for sí")
@MainActor
struct SpanishYesTests {
    func actions(_ screen: any Screen, _ language: Language) -> ScreenActions {
        ScreenActions(
            screen: screen, configured: KeyBindings(), texts: Texts(language), isAtRoot: true, title: "Probe", accessible: false)
    }

    @Test("asked in Spanish, s and S say yes as y and Y do; the footer names the key s")
    func spanish() {
        let asking = QuestionProbe(asking: true)
        #expect(actions(asking, .spanish).rebound(.key(.character("s"))) == .key(.character("y")))
        #expect(actions(asking, .spanish).rebound(.key(.character("S"))) == .key(.character("Y")))
        #expect(actions(asking, .spanish).rebound(.key(.character("y"))) == .key(.character("y")), "y still says yes")
        #expect(KeyHint("y", "yes").shownKey(Texts(.spanish)) == "s")
        #expect(Texts(.spanish)("Log out? (y/n)") == "¿Cerrar sesión? (s/n)")
    }

    @Test("in English s is no answer; without a question s is the screen's own key, in any language")
    func otherwise() {
        #expect(actions(QuestionProbe(asking: true), .english).rebound(.key(.character("s"))) == .key(.character("s")))
        #expect(actions(QuestionProbe(asking: false), .spanish).rebound(.key(.character("s"))) == .key(.character("s")))
        #expect(KeyHint("y", "yes").shownKey(Texts(.english)) == "y")
    }

    @Test("a screen that asks no question keeps s in Spanish, whatever it says of keys it does not declare (the catalog's sort)")
    func noQuestion() {
        #expect(actions(NoQuestionProbe(), .spanish).rebound(.key(.character("s"))) == .key(.character("s")))
        #expect(actions(NoQuestionProbe(), .spanish).rebound(.key(.character("S"))) == .key(.character("S")))
    }
}
