import SharedKernel
import Testing

@testable import Presentation
@testable import TerminalUI

/// Keys bound to named actions in place of their defaults: what a pressed key becomes, and
/// how the footer writes it.
@Suite("Key bindings")
struct KeyBindingsTests {
    static let search = KeyDeclaration("/", "search", help: "search", action: "catalog.search")
    static let favourite = KeyDeclaration("f", "favourite", help: "favourite", action: "catalog.favourite")
    static let move = KeyDeclaration(
        "↑↓", "move", help: "move", actions: [KeyAction("list.up", .up), KeyAction("list.down", .down)])
    static let declarations = [search, favourite, move]

    @Test(
        "a bound key becomes its action's default; a default bound elsewhere does nothing; any other key is itself",
        arguments: [
            (Key.control("f"), Key?.some(.character("/"))), (.character("/"), nil), (.character("n"), .down), (.down, .down),
            (.character("e"), .up), (.character("f"), .character("f")), (.character("x"), .character("x")),
        ] as [(Key, Key?)])
    func translate(key: Key, expected: Key?) {
        let bindings = KeyBindings([
            "catalog.search": [.control("f")], "list.down": [.character("n"), .down], "list.up": [.character("e")],
        ])
        #expect(bindings.translate(key, among: Self.declarations) == expected)
    }

    @Test("no bindings: every key is itself, and the footer writes the declared keys")
    func none() {
        #expect(KeyBindings.none.translate(.character("/"), among: Self.declarations) == .character("/"))
        #expect(Self.declarations.map(KeyBindings.none.display) == ["/", "f", "↑↓"])
    }

    @Test("the footer and the help write the keys in force")
    func display() {
        let bindings = KeyBindings(["catalog.search": [.control("f"), .function(3)], "list.down": [.character("n")]])
        #expect(bindings.display(Self.search) == "Ctrl-F/F3")
        #expect(bindings.display(Self.favourite) == "f")
        #expect(bindings.display(Self.move) == "↑ n")
        #expect(bindings.hint(Self.search) == KeyHint("Ctrl-F/F3", "search"))
    }

    @Test("in a field a bound letter is typed: the footer shows only the keys that act there, and nothing for an action left without one")
    func typing() {
        let bindings = KeyBindings(
            ["list.down": [.character("n"), .down], "list.up": [.character("e")], "catalog.search": [.control("f"), .character("/")]],
            extra: ["catalog.favourite": [.character("F")]]
        ).typing()
        #expect(bindings.display(Self.move) == "↓", "e is typed; ↑ is bound elsewhere")
        // Its own letter still reaches the screen (a question's `y`); a bound letter does not.
        #expect(KeyBindings(["catalog.search": [.control("f"), .character("s")]]).typing().display(Self.search) == "//Ctrl-F")
        #expect(bindings.display(Self.favourite) == "f", "a preset adds nothing in a field")
        let colemak = KeyBindings(["list.down": [.character("n"), .down], "list.up": [.character("e"), .up]])
        #expect(colemak.display(Self.move) == "e/↑ n/↓")
        #expect(colemak.typing().display(Self.move) == "↑↓", "the arrows alone act in a field")
        #expect(KeyBindings(["list.down": [.character("n")], "list.up": [.character("e")]]).typing().display(Self.move) == "")
        #expect(colemak.typing().translate(.down, among: Self.declarations) == .down)
        #expect(KeyBindings(["list.down": [.character("n")]]).typing().translate(.down, among: Self.declarations) == nil)
    }

    @Test(
        "keys as a config file names them",
        arguments: [
            ("G", Key?.some(.character("G"))), ("/", .character("/")), ("ctrl-d", .control("d")), ("Ctrl-D", .control("d")),
            ("f5", .function(5)), ("F12", .function(12)), ("pgdn", .pageDown), ("Enter", .enter), ("esc", .escape),
            ("space", .character(" ")), ("shift-tab", .backTab), ("f13", nil), ("ctrl-1", nil), ("alt-x", nil), ("alt-3", .alt("3")),
            ("Alt-5", .alt("5")), ("", nil),
            (" ", nil), ("dn", nil),
        ] as [(String, Key?)])
    func configNames(name: String, key: Key?) {
        #expect(Key(configName: name) == key)
    }

    @Test("a conflict: two actions of different default keys on one key, in one context; one key's moments may share")
    func conflicts() {
        let context = KeyContext(
            "catalog", own: Self.declarations.flatMap(\.actions),
            global: [KeyAction("global.quit", .character("q")), KeyAction("global.back", .escape)])
        #expect(context.conflict(in: KeyBindings(["catalog.search": [.character("f")]]))?.key == .character("f"))
        #expect(context.conflict(in: KeyBindings(["list.down": [.character("q")]]))?.second == "global.quit")
        #expect(context.conflict(in: KeyBindings(["catalog.search": [.control("f")]])) == nil)
        let moments = KeyContext(
            "reader", own: [KeyAction("reader.more", .character(" ")), KeyAction("reader.questions", .character(" "))], global: [])
        #expect(moments.conflict(in: KeyBindings(["reader.more": [.character("x")], "reader.questions": [.character("x")]])) == nil)
    }

    @Test("the vim preset's keys act where the screen declares nothing on them, and give way where it does")
    func vimPreset() {
        let back = KeyDeclaration("Esc", "back", help: "back", action: "global.back")
        let open = KeyDeclaration("Enter", "open", help: "open", action: "catalog.open")
        let hard = KeyDeclaration("h", "hard", help: "hard", action: "review.hard")
        let vim = KeyBindings(extra: KeyPreset.vim.extra)

        // A list screen: h is back, l and → open, n and N move.
        let catalog = vim.on(Self.declarations + [open, back])
        #expect(catalog.translate(.character("h"), among: Self.declarations + [open, back]) == .escape)
        #expect(catalog.translate(.character("l"), among: Self.declarations + [open, back]) == .enter)
        #expect(catalog.translate(.right, among: Self.declarations + [open, back]) == .enter)
        #expect(catalog.translate(.character("n"), among: Self.declarations + [open, back]) == .down)
        #expect(catalog.translate(.character("N"), among: Self.declarations + [open, back]) == .up)
        #expect(catalog.display(open) == "Enter/l/→")
        #expect(catalog.display(back) == "Esc/h/←")
        // The review declares h (hard), in every state: there h stays hard, even while it is
        // not offered (then it reaches the screen as itself, which ignores it).
        let review = vim.on([hard, back])
        #expect(review.translate(.character("h"), among: [hard, back]) == .character("h"))
        #expect(review.translate(.character("h"), among: [back]) == .character("h"))
        #expect(review.translate(.left, among: [back]) == .escape)
        #expect(review.display(back) == "Esc/←")
        // A key a config file binds wins over the preset's.
        let bound = KeyBindings(["catalog.favourite": [.character("l")]], extra: KeyPreset.vim.extra).on(Self.declarations + [open])
        #expect(bound.translate(.character("l"), among: Self.declarations + [open]) == .character("f"))
        // The preset never makes a clash.
        let context = KeyContext("review", own: hard.actions, global: back.actions)
        #expect(context.conflict(in: vim) == nil)
        #expect(KeyPreset.default.extra.isEmpty)
    }
}
