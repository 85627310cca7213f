import Presentation
import SharedKernel

/// What a screen needs to draw one frame.
public struct Frame: Sendable {
    /// Where the screen may draw: the rows between the header and the footer.
    public var area: Rect
    /// Advances about ten times a second while a screen animates, for spinners.
    public var tick: Int
    /// The words of the language in force, for everything the screen writes.
    public var texts: Texts

    public init(area: Rect, tick: Int = 0, texts: Texts = .english) {
        self.area = area
        self.tick = tick
        self.texts = texts
    }
}

/// Whether a screen used an event, so the shell knows to try its global keys.
public enum EventResult: Hashable, Sendable {
    case handled
    case ignored
}

/// A key and what it does, as a line of the help overlay.
public struct KeyHint: Hashable, Sendable {
    public var key: String
    public var label: LocalizedText

    public init(_ key: String, _ label: LocalizedText) {
        self.key = key
        self.label = label
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

    public init(_ name: String, _ key: Key) {
        self.name = name
        self.key = key
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

/// One screen of the app: it draws its view-model's state, declares its keys, and handles
/// the events it knows. Keys reach it through the shell's one input queue, in order, and
/// only when `accepts` says it can take them.
@MainActor
public protocol Screen: AnyObject {
    /// Every key of this screen, in any state, declared once.
    var keys: [KeyDeclaration] { get }
    /// Whether a declared key does something now (the footer shows only those), and why not.
    func availability(of key: KeyDeclaration) -> KeyAvailability
    /// What the `?` overlay says besides the keys (marks, filters).
    var notes: [HelpSection] { get }
    /// The footer's status message, if any.
    var statusMessage: StatusMessage? { get }
    /// True while a text field or a question has the keyboard: then only Ctrl-C is global.
    var isCapturingText: Bool { get }
    /// True while something moves on screen (a spinner), so the shell keeps ticking frames.
    var isAnimating: Bool { get }

    /// False while the screen cannot apply `event` to what it shows yet, because what the
    /// key acts on is loading (a search, a page, the screen itself): the shell's queue holds
    /// the key, and the ones after it, until this turns true.
    func accepts(_ event: InputEvent) -> Bool
    /// Called each time the screen becomes the visible one. Starts what it needs to load,
    /// and marks itself busy at once, so keys typed next wait for it.
    func appear()
    /// Called when the screen leaves for good (popped, or its learner signed out): the
    /// tasks it started are cancelled.
    func disappear()
    func draw(in canvas: inout some Canvas, frame: Frame)
    /// Applies a key or mouse event. Returns when what the key does to the screen is done;
    /// a save it starts goes on in the background (see `settle`).
    func handle(_ event: InputEvent) async -> EventResult
    /// Waits until the work this screen started (loads and saves) has finished.
    func settle() async
}

extension Screen {
    public func availability(of key: KeyDeclaration) -> KeyAvailability { .available }
    public var notes: [HelpSection] { [] }
    public var statusMessage: StatusMessage? { nil }
    public var isCapturingText: Bool { false }
    public var isAnimating: Bool { false }
    public func accepts(_ event: InputEvent) -> Bool { true }
    public func appear() {}
    public func disappear() {}
    public func settle() async {}

    /// Whether a declared key does something now.
    public func isAvailable(_ key: KeyDeclaration) -> Bool {
        availability(of: key) == .available
    }

    /// The keys the footer offers now.
    public var availableKeys: [KeyDeclaration] {
        keys.filter { $0.inFooter && isAvailable($0) }
    }

    /// Why `event` does nothing now: it is a key of declarations none of which is available,
    /// and one of them is unavailable with a reason. `nil` when a declaration of it acts, when
    /// they are all dormant, for an undeclared key or a mouse event, and while a field or a
    /// question holds the keyboard (every key is theirs then).
    public func refusal(of event: InputEvent) -> LocalizedText? {
        guard !isCapturingText, case .key(let key) = event else { return nil }
        var reason: LocalizedText?
        for declaration in keys where declaration.keys.contains(key) {
            switch availability(of: declaration) {
            case .available: return nil
            case .unavailable(let why): reason = reason ?? why
            case .dormant: break
            }
        }
        return reason
    }
}
