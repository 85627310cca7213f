import Presentation
import SharedKernel
import TerminalUI
import Testing

@Suite("Keys that cannot act say why")
@MainActor
struct KeyAvailabilityTests {
    nonisolated static let enroll = KeyDeclaration("e", "enroll", help: "enroll")
    nonisolated static let done = KeyDeclaration("Space", "done", help: "mark done")
    nonisolated static let notDone = KeyDeclaration("Space", "not done", help: "mark not done")
    nonisolated static let back = KeyDeclaration("Esc", "clear", help: "clear the filter")
    nonisolated static let move = KeyDeclaration("↑↓", "move", help: "move")

    @Test(
        "a declared key none of whose declarations acts says the first reason; one that acts, sleeps, or is undeclared says nothing",
        arguments: [
            ([enroll: .available], InputEvent.char("e"), nil),
            ([enroll: .unavailable(reason: "You are already enrolled in Swift 101")], .char("e"), "You are already enrolled in Swift 101"),
            ([enroll: .dormant], .char("e"), nil),
            ([enroll: .unavailable(reason: "No")], .char("x"), nil),
            ([enroll: .unavailable(reason: "No")], .char("E"), nil),
            ([done: .dormant, notDone: .available], .char(" "), nil),
            ([done: .unavailable(reason: "Enroll first"), notDone: .unavailable(reason: "Enroll first too")], .char(" "), "Enroll first"),
            ([done: .dormant, notDone: .unavailable(reason: "Enroll first")], .char(" "), "Enroll first"),
            ([back: .dormant], .key(.escape), nil),
            ([move: .unavailable(reason: "No rows")], .key(.down), nil),
            ([enroll: .unavailable(reason: "No")], .mouse(.click(x: 1, y: 1)), nil),
        ] as [([KeyDeclaration: KeyAvailability], InputEvent, String?)])
    func refusal(availability: [KeyDeclaration: KeyAvailability], event: InputEvent, reason: String?) {
        let sut = StubScreen(availability)

        #expect(sut.refusal(of: event)?.english == reason)
    }

    @Test("while a field or a question has the keyboard, no key is explained: it is the field's")
    func capturing() {
        let sut = StubScreen([Self.enroll: .unavailable(reason: "No")])
        sut.isCapturingText = true

        #expect(sut.refusal(of: .char("e")) == nil)
    }

    @Test("the footer offers only what is available: neither the unavailable nor the dormant")
    func footer() {
        let sut = StubScreen([Self.enroll: .unavailable(reason: "No"), Self.done: .available, Self.notDone: .dormant])

        #expect(sut.availableKeys == [Self.done])
    }

    @Test(
        "a declaration answers to the key it names, or to those it is given",
        arguments: [
            (KeyDeclaration("e", "enroll", help: ""), [Key.character("e")]),
            (KeyDeclaration("/", "search", help: ""), [.character("/")]),
            (KeyDeclaration("Enter", "open", help: ""), [.enter]),
            (KeyDeclaration("Esc", "clear", help: ""), [.escape]),
            (KeyDeclaration("Space", "done", help: ""), [.character(" ")]),
            (KeyDeclaration("Backspace", "back", help: ""), [.backspace]),
            (KeyDeclaration("Tab", "next", help: ""), [.tab]),
            (KeyDeclaration("Ctrl-U", "clear", help: ""), [.control("u")]),
            (KeyDeclaration("↑↓", "move", help: ""), []),
            (KeyDeclaration("PgUp PgDn", "page", help: ""), []),
            (KeyDeclaration("↑↓", "move", help: "", keys: [.up, .down]), [.up, .down]),
        ])
    func keys(declaration: KeyDeclaration, keys: [Key]) {
        #expect(declaration.keys == keys)
    }
}

/// A screen whose keys are the table's, each as available as the table says.
@MainActor
private final class StubScreen: Screen {
    let table: [KeyDeclaration: KeyAvailability]
    var isCapturingText = false

    init(_ table: [KeyDeclaration: KeyAvailability]) {
        self.table = table
    }

    var keys: [KeyDeclaration] {
        [
            KeyAvailabilityTests.enroll, KeyAvailabilityTests.done, KeyAvailabilityTests.notDone, KeyAvailabilityTests.back,
            KeyAvailabilityTests.move,
        ].filter { table[$0] != nil }
    }

    func availability(of key: KeyDeclaration) -> KeyAvailability { table[key] ?? .dormant }
    func draw(in canvas: inout some Canvas, frame: Frame) {}
    func handle(_ event: InputEvent) async -> EventResult { .ignored }
}
