import Presentation
import SharedKernel
import TerminalUI

/// What the screen in front and the global keys let the learner do, with the keys in force:
/// the command palette's items, the help's sections, and a key as the bindings make it. Each
/// is drawn from the screens' declarations (`Screen.keys`), never from a second list.
@MainActor
struct ScreenActions {
    /// The words the accessible mode's rows show for the marks `★` and `✓`.
    static let markWords = ["★": "favourite", "✓": "enrolled"]

    let screen: any Screen
    /// The config file's bindings.
    let configured: KeyBindings
    let texts: Texts
    /// Signed in, with the navigation: whether the screen is a tab's root. Nil before sign-in.
    let isAtRoot: Bool?
    /// The help's title for the screen's own keys.
    let title: LocalizedText
    let accessible: Bool
    /// Why the config file was refused while the app runs, if it was.
    var settingsProblem: LocalizedText? = nil

    /// The bindings on the screen: a preset's key gives way to a key the screen or the global
    /// keys declare.
    /// While a field or a question holds the keyboard, bound letters are typed, not keys: the
    /// footer and the palette then show only what acts there.
    var bindings: KeyBindings {
        let bindings = configured.on(screen.keys + GlobalKeys.all)
        return screen.isCapturingText ? bindings.typing() : bindings
    }

    /// Every action of the screen and the global ones, with the keys in force: all that act
    /// now (the screen's, then the global ones), then the screen's that cannot, with why.
    func paletteItems() -> [PaletteItem] {
        let bindings = self.bindings
        var all = items(screen.keys.filter { screen.availability(of: $0) == .available }, bindings: bindings)
        if let isAtRoot, !screen.isCapturingText {
            let global = isAtRoot ? GlobalKeys.all.filter { $0 != GlobalKeys.back } : GlobalKeys.all
            all += items(global.filter { $0 != GlobalKeys.palette }, bindings: bindings)
            all += AppTab.allCases.map { tab in
                PaletteItem(
                    keys: "\(tab.rawValue + 1)", title: texts("Go to \(tab.title)"), name: "tab.\(tab.rawValue + 1)",
                    key: .character(Character("\(tab.rawValue + 1)")))
            }
            // The help opens on the whole reason.
            if settingsProblem != nil, let help = GlobalKeys.help.actions.first {
                let item = PaletteItem(
                    keys: bindings.keys(of: help).map(\.displayName).joined(separator: "/"), title: texts("Show settings problem"),
                    name: "settings.problem", key: help.key)
                all.insert(item, at: 0)
            }
        }
        // What cannot act now is listed too, last, with the reason: the palette is where
        // every action can be found.
        let reasons = screen.keys.compactMap { declaration -> (KeyDeclaration, String)? in
            if case .unavailable(let reason) = screen.availability(of: declaration) { return (declaration, texts(reason)) }
            return nil
        }
        all += items(reasons.map(\.0), bindings: bindings) { declaration in reasons.first { $0.0 == declaration }?.1 }
        return all
    }

    private func items(
        _ declarations: [KeyDeclaration], bindings: KeyBindings, unavailable: (KeyDeclaration) -> String? = { _ in nil }
    ) -> [PaletteItem] {
        declarations.flatMap { declaration in
            declaration.actions.map { action in
                // One of several (↑ of ↑↓) has words of its own; the one action of a key, its help.
                let title = texts(action.title ?? declaration.help)
                return PaletteItem(
                    keys: bindings.keys(of: action).map(\.displayName).joined(separator: "/"),
                    title: title.prefix(1).uppercased() + title.dropFirst(), name: action.name, key: action.key,
                    unavailable: unavailable(declaration))
            }
        }
    }

    /// The screen's keys and notes, then the keys that work everywhere.
    func helpSections() -> [HelpSection] {
        let bindings = self.bindings
        // A refused config file first, its reason whole (it wraps).
        var sections =
            settingsProblem.map { [HelpSection("Settings not applied: those before stay in force", keys: [KeyHint("✗", $0)])] } ?? []
        sections.append(HelpSection(title, keys: screen.keys.map(bindings.helpHint)))
        sections += screen.notes
        if isAtRoot != nil {
            sections.append(HelpSection("Everywhere", keys: GlobalKeys.all.map(bindings.helpHint)))
        }
        guard accessible else { return sections }
        // The accessible mode's rows spell their marks: so does the help that explains them.
        return sections.map { section in
            HelpSection(section.title, keys: section.keys.map { KeyHint(Self.markWords[$0.key] ?? $0.key, $0.label) })
        }
    }

    /// `event` as the config file's bindings make it: a bound key as the default key of its
    /// action, a default key bound elsewhere as nothing (`nil`). Text typed into a field is
    /// text, whatever the bindings.
    func rebound(_ event: InputEvent) -> InputEvent? {
        // A y/n question asks `(s/n)` in Spanish: `s` (sí) says yes there, as `y` does. Only
        // on a screen that asks one: the catalog calls keys it does not know available, and
        // its own `s` (sort) was taken for a yes to no question.
        if case .key(.character(let letter)) = event, letter == "s" || letter == "S", texts.language == .spanish,
            screen.keys.contains(YesNoQuestion.yes), screen.availability(of: YesNoQuestion.yes) == .available
        {
            return .key(.character(letter == "s" ? "y" : "Y"))
        }
        guard case .key(let key) = event, !configured.isEmpty else { return event }
        if screen.isCapturingText, case .character = key { return event }
        let own = screen.keys.filter { screen.availability(of: $0) != .dormant }
        let global = screen.isCapturingText ? [] : GlobalKeys.all
        // A field or a question has every key: a preset's arrow never leaves it (`typing()`).
        return bindings.translate(key, among: own + global).map(InputEvent.key)
    }
}
