import Catalog
import Courses
import Favourites
import Presentation
import Profile
import Review
import SharedKernel
import TerminalUI

/// The keys that work on every screen (not while typing), declared once for the footer, the
/// `?` overlay and `tui --help`.
enum GlobalKeys {
    static let tabs = KeyDeclaration("1-5", "tabs", help: "Catalog, My courses, Favourites, Profile, Review (a click on a tab too)")
    /// The tabs where the digits pick an answer (Review, a lesson's questions).
    static let altTabs = KeyDeclaration(
        "Alt-1-5", "tabs", help: "the tabs where the digits pick an answer (Review, a lesson's questions; Tab too)",
        keys: (1...5).map { .alt(Character(String($0))) })
    static let nextTab = KeyDeclaration(
        "Tab", "next tab", help: "next tab (Shift-Tab: previous)", inFooter: false, action: "global.next_tab")
    static let help = KeyDeclaration(
        "?", "help", help: "this help: every key of the screen",
        actions: [KeyAction("global.help", .character("?"), title: "Show the help: every key of this screen")])
    static let back = KeyDeclaration("Esc", "back", help: "back", action: "global.back")
    static let quit = KeyDeclaration("q", "quit", help: "back; quit at a tab's root", action: "global.quit")
    static let interrupt = KeyDeclaration("Ctrl-C", "quit", help: "quit at once, from anywhere", inFooter: false)
    static let palette = KeyDeclaration(
        ": Ctrl-P", "actions", help: "the command palette: every action here, filtered as you type; Enter runs it", inFooter: false,
        keys: [.character(":"), .control("p")], actions: [KeyAction("global.palette", .character(":"))])

    static let all = [tabs, altTabs, nextTab, back, quit, help, palette, interrupt]

    /// Where a key means one thing, for the config file's `[keys]`: the actions that can be
    /// asked of one screen (with its list's), beside the global ones. A y/n question is a
    /// moment of its own: while it is asked, nothing else acts, so `n` may also move a list.
    /// Worked out once: a start reads the config file twice (for the command line's language,
    /// then for the app) and `--help` a third time, and each comparison of two keys here reads
    /// their English texts.
    static let contexts: [KeyContext] = {
        let lists = ListKeys.all
        let screens: [(String, [KeyDeclaration])] = [
            ("catalog", CatalogFeature.listKeys + lists), ("course page", CatalogFeature.detailKeys),
            ("lesson reader", CoursesFeature.readerKeys), ("my courses", CoursesFeature.keys + lists),
            ("favourites", FavouritesFeature.keys + lists), ("profile", ProfileFeature.keys),
            ("review", ReviewFeature.keys), ("sign-in", SignInFeature.keys),
            ("y/n question", [YesNoQuestion.yes, YesNoQuestion.no]),
        ]
        let question = [YesNoQuestion.yes, YesNoQuestion.no]
        return screens.map { name, keys in
            let own = name == "y/n question" ? keys : keys.filter { !question.contains($0) }
            return KeyContext(name, own: own.flatMap(\.actions), global: all.flatMap(\.actions))
        }
    }()

    /// Every key of the app, by screen, and what the marks mean: the text of `tui --help`,
    /// with the keys in force (`bindings`).
    static func manual(_ bindings: KeyBindings = .none, texts: Texts = .english) -> String {
        let hints = { (keys: [KeyDeclaration]) in keys.map(bindings.helpHint) }
        let withoutListKeys = { (keys: [KeyDeclaration]) in hints(keys.filter { !ListKeys.all.contains($0) }) }
        var sections: [(LocalizedText, [KeyHint])] = [
            ("Everywhere (not while typing)", hints(all)),
            ("Any list", hints(ListKeys.all)),
            ("Any text field", hints(TextFieldKeys.all)),
            ("Catalog (tab 1)", withoutListKeys(CatalogFeature.listKeys)),
            ("Course page", hints(CatalogFeature.detailKeys)),
            ("Lesson reader", hints(CoursesFeature.readerKeys)),
            ("My courses (tab 2)", withoutListKeys(CoursesFeature.keys)),
            ("Favourites (tab 3)", withoutListKeys(FavouritesFeature.keys)),
            ("Profile (tab 4)", hints(ProfileFeature.keys)),
            ("Review (tab 5)", hints(ReviewFeature.keys)),
            ("Sign-in screen", hints(SignInFeature.keys)),
        ]
        sections.append((CatalogFeature.marks.title, CatalogFeature.marks.keys))
        sections.append((CatalogFeature.filters.title, CatalogFeature.filters.keys))
        let keyWidth = sections.flatMap(\.1).map { $0.shownKey(texts).displayWidth }.max() ?? 0
        return sections.map { title, hints in
            ([texts(title).uppercased()]
                + hints.flatMap { hint in
                    // Lines stay within 78 columns, so no help viewer folds them.
                    let lines = TextWrapper.wrap(texts(hint.label), width: max(20, 78 - keyWidth - 4))
                    let shown = hint.shownKey(texts)
                    let key = "  " + shown + String(repeating: " ", count: keyWidth - shown.displayWidth + 2)
                    let indent = String(repeating: " ", count: keyWidth + 4)
                    return lines.enumerated().map { ($0.offset == 0 ? key : indent) + $0.element }
                }).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}
