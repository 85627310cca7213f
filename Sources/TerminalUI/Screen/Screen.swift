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
    /// True while a text field has the keyboard: then only Ctrl-C is global.
    var isCapturingText: Bool { get }
    /// True while the digits pick an answer here: they do not switch tabs then (`Alt-1`…
    /// `Alt-5`, `Tab` and `Shift-Tab` do). The same rule on every screen that takes them.
    var takesDigits: Bool { get }
    /// True while something moves on screen (a spinner), so the shell keeps ticking frames.
    var isAnimating: Bool { get }
    /// What the footer says `key` does now: its label, or more (`again 10m`).
    func footerLabel(of key: KeyDeclaration) -> LocalizedText
    /// A shorter label for a narrow footer (nil: the label, or nothing once out of room).
    func footerShortLabel(of key: KeyDeclaration) -> LocalizedText?

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
    public var takesDigits: Bool { false }
    public var isAnimating: Bool { false }
    public func footerLabel(of key: KeyDeclaration) -> LocalizedText { key.label }
    public func footerShortLabel(of key: KeyDeclaration) -> LocalizedText? { nil }
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
