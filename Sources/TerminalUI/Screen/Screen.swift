/// What a screen needs to draw one frame.
public struct Frame: Sendable {
    /// Where the screen may draw: the rows between the header and the footer.
    public var area: Rect
    /// Advances about ten times a second while a screen animates, for spinners.
    public var tick: Int

    public init(area: Rect, tick: Int = 0) {
        self.area = area
        self.tick = tick
    }
}

/// Whether a screen used an event, so the shell knows to try its global keys.
public enum EventResult: Hashable, Sendable {
    case handled
    case ignored
}

/// A key and what it does, for the footer and the help overlay.
public struct KeyHint: Hashable, Sendable {
    public var key: String
    public var label: String

    public init(_ key: String, _ label: String) {
        self.key = key
        self.label = label
    }
}

/// A one-line message in the footer.
public struct StatusMessage: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case info
        case success
        case error
    }

    public var text: String
    public var kind: Kind

    public init(_ text: String, kind: Kind = .info) {
        self.text = text
        self.kind = kind
    }
}

/// One screen of the app: it draws its view-model's state and handles the events it knows.
@MainActor
public protocol Screen: AnyObject {
    /// The keys that work here, shown in the footer.
    var keyHints: [KeyHint] { get }
    /// Every key of this screen, in any state, for the `?` help overlay.
    var helpKeys: [KeyHint] { get }
    /// The footer's status message, if any.
    var statusMessage: StatusMessage? { get }
    /// True while a text field has focus: then only Ctrl-C is a global key.
    var isCapturingText: Bool { get }
    /// True while something moves on screen (a spinner), so the shell keeps ticking frames.
    var isAnimating: Bool { get }

    /// Called each time the screen becomes the visible one.
    func appear()
    func draw(in canvas: inout some Canvas, frame: Frame)
    func handle(_ event: InputEvent) -> EventResult
}

extension Screen {
    public var helpKeys: [KeyHint] { keyHints }
    public var statusMessage: StatusMessage? { nil }
    public var isCapturingText: Bool { false }
    public var isAnimating: Bool { false }
    public func appear() {}
}
