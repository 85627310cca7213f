/// The keys a config file binds to named actions (`[keys]`), in place of their defaults, and
/// the keys a preset adds (`extra`). A key pressed is turned into the default key of the
/// action it is bound to before the screen sees it, so screens keep handling their own keys;
/// a default key moved elsewhere does nothing. A key a preset adds gives way, on each screen,
/// to any key that screen or the global keys declare (vim's `h` is back, but `h` is `hard` in
/// the review). The footer, `?` and `tui --help` show the keys in force.
public struct KeyBindings: Hashable, Sendable {
    /// Action name → the keys bound to it (they replace its default key).
    public var keys: [String: [Key]]
    /// Action name → keys a preset adds to it, where they mean nothing else.
    public var extra: [String: [Key]]

    /// A field or a question holds the keyboard: a letter pressed is text there (or the
    /// question's own answer), never a bound key.
    public private(set) var isTyping = false

    public init(_ keys: [String: [Key]] = [:], extra: [String: [Key]] = [:]) {
        self.keys = keys
        self.extra = extra
    }

    /// The bindings while a field or a question holds the keyboard: the letters bound to an
    /// action are typed, not translated, so they do not act (nor does a preset's key); an
    /// action's own letter reaches the screen as it is, so it still does (`y` in a question).
    public func typing() -> KeyBindings {
        var bindings = self
        bindings.extra = [:]
        bindings.isTyping = true
        return bindings
    }

    public static let none = KeyBindings()

    /// Whether any key differs from the defaults.
    public var isEmpty: Bool { keys.isEmpty && extra.isEmpty }

    /// The keys that do `action` now: those bound to it (else its default), then those a
    /// preset adds.
    public func keys(of action: KeyAction) -> [Key] {
        primaryKeys(of: action) + (extra[action.name] ?? []).filter { !primaryKeys(of: action).contains($0) }
    }

    /// The keys bound to `action`, else its default.
    public func primaryKeys(of action: KeyAction) -> [Key] {
        guard let bound = keys[action.name] else { return [action.key] }
        guard isTyping else { return bound }
        let acting = bound.filter { !$0.isCharacter }
        return action.key.isCharacter && !acting.contains(action.key) ? [action.key] + acting : acting
    }

    /// The bindings on a screen that declares `declarations` (its own keys, in every state,
    /// and the global ones): a preset's key that one of them declares gives way to it.
    public func on(_ declarations: [KeyDeclaration]) -> KeyBindings {
        guard !extra.isEmpty else { return self }
        var taken = Set(declarations.flatMap(\.keys))
        for action in declarations.flatMap(\.actions) { taken.formUnion(primaryKeys(of: action)) }
        var bindings = self
        bindings.extra = extra.compactMapValues { keys in
            let free = keys.filter { !taken.contains($0) }
            return free.isEmpty ? nil : free
        }
        return bindings
    }

    /// What `key` means among `declarations` (those that can act, or say why they cannot):
    /// the default key of the action it is bound to; `nil` when it is the default of an
    /// action bound elsewhere (it does nothing); else itself. Call it on the bindings `on`
    /// the screen gives, so a preset's key never hides one of the screen's.
    public func translate(_ key: Key, among declarations: [KeyDeclaration]) -> Key? {
        guard !isEmpty else { return key }
        let actions = declarations.flatMap(\.actions)
        if let bound = actions.first(where: { primaryKeys(of: $0).contains(key) }) { return bound.key }
        if actions.contains(where: { $0.key == key && keys[$0.name] != nil }) { return nil }
        if let added = actions.first(where: { extra[$0.name]?.contains(key) == true }) { return added.key }
        return key
    }

    /// `declaration`'s key as a person reads it, with the keys in force.
    /// Empty when none of its keys acts now (a letter bound to it, while typing).
    public func display(_ declaration: KeyDeclaration) -> String {
        let inForce = declaration.actions.map { keys(of: $0) }
        guard zip(declaration.actions, inForce).contains(where: { $1 != [$0.key] }) else { return declaration.key }
        return inForce.filter { !$0.isEmpty }.map { $0.map(\.displayName).joined(separator: "/") }.joined(separator: " ")
    }

    public func hint(_ declaration: KeyDeclaration) -> KeyHint { KeyHint(display(declaration), declaration.label) }
    public func helpHint(_ declaration: KeyDeclaration) -> KeyHint { KeyHint(display(declaration), declaration.help) }
}

/// The keys a `[keys] preset` adds to the defaults.
public enum KeyPreset: String, CaseIterable, Sendable {
    case `default`
    /// vim's: `h`/`←` back and `l`/`→` open, `n`/`N` the next and previous match (row) of a
    /// list; `Ctrl-D`/`Ctrl-U` half pages and `g` (so `gg`) and `G` are every list's already.
    case vim

    /// Action name → the keys this preset adds.
    public var extra: [String: [Key]] {
        guard self == .vim else { return [:] }
        var extra: [String: [Key]] = ["global.back": [.character("h"), .left]]
        for name in ["catalog.open", "courses.open", "favourites.open", "course.read"] { extra[name] = [.character("l"), .right] }
        extra["list.down"] = [.character("n")]
        extra["list.up"] = [.character("N")]
        return extra
    }
}

extension Key {
    /// The key as a config file names it: one character (`G`, `/`), `ctrl-` and a letter,
    /// `f1`–`f12`, or `enter`, `esc`, `space`, `tab`, `shift-tab`, `backspace`, `delete`,
    /// `up`, `down`, `left`, `right`, `pgup`, `pgdn`, `home`, `end` (names in any case).
    public init?(configName name: String) {
        if name.count == 1, let character = name.first, !character.isWhitespace, !character.isNewline,
            character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        {
            self = .character(character)
            return
        }
        let lowered = name.lowercased()
        if lowered == "escape" {
            self = .escape
        } else if let key = Self.configNames.first(where: { $0.name == lowered })?.key {
            self = key
        } else if lowered.hasPrefix("ctrl-"), lowered.count == 6, let letter = lowered.last, letter.isASCII, letter.isLetter {
            self = .control(letter)
        } else if lowered.hasPrefix("alt-"), lowered.count == 5, let digit = lowered.last, digit.isASCII, digit.isNumber {
            self = .alt(digit)
        } else if lowered.hasPrefix("f"), let number = Int(lowered.dropFirst()), (1...12).contains(number), lowered.count <= 3 {
            self = .function(number)
        } else {
            return nil
        }
    }

    /// The keys a config file names by a word, as it writes them.
    private static let configNames: [(name: String, key: Key)] = [
        ("enter", .enter), ("esc", .escape), ("space", .character(" ")), ("tab", .tab), ("shift-tab", .backTab),
        ("backspace", .backspace), ("delete", .delete), ("up", .up), ("down", .down), ("left", .left), ("right", .right),
        ("pgup", .pageUp), ("pgdn", .pageDown), ("home", .home), ("end", .end),
    ]

    /// The key as a config file writes it (`init(configName:)` reads it back).
    public var configName: String {
        if let word = Self.configNames.first(where: { $0.key == self })?.name { return word }
        switch self {
        case .character(let character): return String(character)
        case .control(let letter): return "ctrl-\(letter)"
        case .alt(let character): return "alt-\(character)"
        case .function(let number): return "f\(number)"
        default: return displayName
        }
    }

    /// The key as the footer and the help write it.
    public var displayName: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .control(let letter): "Ctrl-" + letter.uppercased()
        case .alt(let character): "Alt-\(character)"
        case .function(let number): "F\(number)"
        }
    }
}

/// The actions of one screen and those that work everywhere beside it: within one, a key
/// means one thing, so a config file cannot bind one key to two of them.
public struct KeyContext: Sendable {
    public let name: String
    public let own: [KeyAction]
    public let global: [KeyAction]

    public init(_ name: String, own: [KeyAction], global: [KeyAction]) {
        self.name = name
        self.own = own
        self.global = global
    }

    /// The first two actions `bindings` gives the same key, if any. Actions with the same
    /// default key are one key's meanings in different moments (`Space`: more, questions,
    /// mark done), never two at once, so they may share it.
    public func conflict(in bindings: KeyBindings) -> (key: Key, first: String, second: String)? {
        let actions = own + global
        for (index, first) in actions.enumerated() {
            for second in actions[(index + 1)...] where second.key != first.key && second.name != first.name {
                // A preset's keys give way where taken (`KeyBindings.on`): never a clash.
                if let shared = bindings.primaryKeys(of: first).first(where: bindings.primaryKeys(of: second).contains) {
                    return (shared, first.name, second.name)
                }
            }
        }
        return nil
    }
}
