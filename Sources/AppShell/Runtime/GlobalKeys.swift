import Catalog
import Courses
import Favourites
import Profile
import Review
import TerminalUI

/// The keys that work on every screen (not while typing), declared once for the footer, the
/// `?` overlay and `tui --help`.
enum GlobalKeys {
    static let tabs = KeyDeclaration("1-5", "tabs", help: "Catalog, My courses, Favourites, Profile, Review (a click on a tab too)")
    static let nextTab = KeyDeclaration("Tab", "next tab", help: "next tab (Shift-Tab: previous)", inFooter: false)
    static let help = KeyDeclaration("?", "help", help: "this help: every key of the screen")
    static let back = KeyDeclaration("Esc", "back", help: "back")
    static let quit = KeyDeclaration("q", "quit", help: "back; quit at a tab's root")
    static let interrupt = KeyDeclaration("Ctrl-C", "quit", help: "quit at once, from anywhere", inFooter: false)

    static let all = [tabs, nextTab, back, quit, help, interrupt]

    /// Every key of the app, by screen, and what the marks mean: the text of `tui --help`.
    static var manual: String {
        var sections: [(String, [KeyHint])] = [
            ("Everywhere (not while typing)", all.map(\.helpHint)),
            ("Any list", ListKeys.all.map(\.helpHint)),
            ("Any text field", TextFieldKeys.all.map(\.helpHint)),
            ("Catalog (tab 1)", Self.withoutListKeys(CatalogFeature.listKeys)),
            ("Course page", CatalogFeature.detailKeys.map(\.helpHint)),
            ("Lesson reader", CoursesFeature.readerKeys.map(\.helpHint)),
            ("My courses (tab 2)", Self.withoutListKeys(CoursesFeature.keys)),
            ("Favourites (tab 3)", Self.withoutListKeys(FavouritesFeature.keys)),
            ("Profile (tab 4)", ProfileFeature.keys.map(\.helpHint)),
            ("Review (tab 5)", ReviewFeature.keys.map(\.helpHint)),
            ("Sign-in screen", SignInFeature.keys.map(\.helpHint)),
        ]
        sections.append((CatalogFeature.marks.title, CatalogFeature.marks.keys))
        sections.append((CatalogFeature.filters.title, CatalogFeature.filters.keys))
        let keyWidth = sections.flatMap(\.1).map(\.key.displayWidth).max() ?? 0
        return sections.map { title, hints in
            ([title.uppercased()]
                + hints.flatMap { hint in
                    // Lines stay within 78 columns, so no help viewer folds them.
                    let lines = TextWrapper.wrap(hint.label, width: max(20, 78 - keyWidth - 4))
                    let key = "  " + hint.key + String(repeating: " ", count: keyWidth - hint.key.displayWidth + 2)
                    let indent = String(repeating: " ", count: keyWidth + 4)
                    return lines.enumerated().map { ($0.offset == 0 ? key : indent) + $0.element }
                }).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    private static func withoutListKeys(_ keys: [KeyDeclaration]) -> [KeyHint] {
        keys.filter { !ListKeys.all.contains($0) }.map(\.helpHint)
    }
}
