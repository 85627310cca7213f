import SharedKernel

/// A key and what it does, as a line of the help overlay.
public struct KeyHint: Hashable, Sendable {
    public var key: String
    public var label: LocalizedText
    /// What the footer says instead where the whole row does not fit (`10m` for `again 10m`).
    public var short: LocalizedText?

    public init(_ key: String, _ label: LocalizedText, short: LocalizedText? = nil) {
        self.key = key
        self.label = label
        self.short = short
    }

    /// The key as the language writes it: a word (a mark's `full`, a filter's `is:free`) or
    /// the name of a key (`Intro`, `Espacio`, `RePág` on Spanish keyboards) in its words;
    /// characters and `Ctrl-X` as they are. Keys named together (`PgUp PgDn`, `Enter/l/→`)
    /// are named one by one.
    public func shownKey(_ texts: Texts) -> String {
        Self.shown(key, texts)
    }

    public static func shown(_ key: String, _ texts: Texts) -> String {
        guard texts.language != .english else { return key }
        let whole = texts(LocalizedText(stringLiteral: key))
        guard whole == key, key.contains(where: { $0 == " " || $0 == "/" }) else { return whole }
        var result = ""
        var word = ""
        for character in key {
            if character == " " || character == "/" {
                result += texts(LocalizedText(stringLiteral: word)) + String(character)
                word = ""
            } else {
                word.append(character)
            }
        }
        return result + texts(LocalizedText(stringLiteral: word))
    }
}

/// Something a screen lets the learner do, declared once: the footer shows it (short
/// `label`) while it is available, the `?` overlay and `tui --help` list it (`help`), and the
/// shell knows it by its `keys`, so pressing one when it cannot act says why.
public struct KeyDeclaration: Hashable, Sendable {
    /// The key as written for a person: `f`, `Enter`, `↑↓`.
    public let key: String
    /// The footer's word for it.
    public let label: LocalizedText
    /// The overlay's and `--help`'s sentence for it.
    public let help: LocalizedText
    /// False for keys the footer never has room for (Home, PgDn…): listed in help only.
    public let inFooter: Bool
    /// The keys that do it. By default the one `key` names (a character, `Enter`, `Esc`,
    /// `Space`, `Backspace`, `Tab` or `Ctrl-X`); keys written otherwise (`↑↓`, `PgUp PgDn`)
    /// name none unless given, so the shell never explains them.
    public let keys: [Key]
    /// What it does by name (`catalog.search`), each with the key that does it by default:
    /// a config file binds other keys to these names (`KeyBindings`). Empty for what cannot
    /// be rebound (the digits of the tabs, the mouse, Ctrl-C).
    public let actions: [KeyAction]

    /// `action`: the name of what the one key `key` names does; `actions`: several (`↑↓`).
    public init(
        _ key: String, _ label: LocalizedText, help: LocalizedText, inFooter: Bool = true, keys: [Key]? = nil, action: String? = nil,
        actions: [KeyAction]? = nil
    ) {
        self.key = key
        self.label = label
        self.help = help
        self.inFooter = inFooter
        let keys = keys ?? Key(named: key).map { [$0] } ?? []
        self.keys = keys
        self.actions = actions ?? action.flatMap { name in keys.first.map { [KeyAction(name, $0)] } } ?? []
    }

    public var hint: KeyHint { KeyHint(key, label) }
    public var helpHint: KeyHint { KeyHint(key, help) }
}

/// One thing a declared key does, by a name that stays (`list.page_down`), and the key
/// that does it unless a config file binds others.
public struct KeyAction: Hashable, Sendable {
    public let name: String
    public let key: Key
    /// The command palette's words for it, where its declaration does several things (`↑↓`:
    /// `Move up`, `Move down`); nil for the declaration's one action, which its help names.
    public let title: LocalizedText?

    public init(_ name: String, _ key: Key, title: LocalizedText? = nil) {
        self.name = name
        self.key = key
        self.title = title
    }
}

/// Whether a declared key acts now, and if not, what pressing it does.
public enum KeyAvailability: Hashable, Sendable {
    /// It acts: the footer offers it, and the screen handles it.
    case available
    /// It cannot act now: the footer leaves it out, and pressing it shows why (`✗ <reason>`)
    /// and does nothing else.
    case unavailable(reason: LocalizedText)
    /// It belongs to another moment (a question not asked, a field not open, a filter not
    /// kept, another action of the same key): the footer leaves it out, and pressing it goes
    /// on as if it were not declared (to the screen, then the global keys: `Esc` goes back).
    case dormant
}
