import Presentation
import SharedKernel

/// A colour as a theme names it: the terminal's own, one of the 256 indexed colours (0–15
/// are the named ones), or `#rrggbb`, shown as the nearest colour the terminal has.
public enum ThemeColour: Hashable, Sendable {
    case terminal
    case indexed(Int)
    case rgb(red: Int, green: Int, blue: Int)

    /// The 16 named colours, as indexes; `bright-` ones are 8–15.
    public static let names: [String: Int] = {
        let base = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        var names: [String: Int] = [:]
        for (index, name) in base.enumerated() {
            names[name] = index
            names["bright-" + name] = index + 8
        }
        names["gray"] = 8
        names["grey"] = 8
        return names
    }()

    /// `default` (the terminal's), a name (`blue`, `bright-red`), `0`–`255`, or `#rrggbb`.
    public init?(parsing text: String) {
        let text = text.lowercased()
        if text == "default" {
            self = .terminal
        } else if let index = Self.names[text] {
            self = .indexed(index)
        } else if let number = Int(text), (0...255).contains(number), text.allSatisfy(\.isASCII) {
            self = .indexed(number)
        } else if text.count == 7, text.hasPrefix("#"), let value = Int(text.dropFirst(), radix: 16),
            text.dropFirst().allSatisfy(\.isHexDigit)
        {
            self = .rgb(red: value >> 16, green: (value >> 8) & 0xFF, blue: value & 0xFF)
        } else {
            return nil
        }
    }

    /// The colour as a terminal of `count` colours (8, 16, 256) shows it: its index, or `nil`
    /// for the terminal's own. A colour it lacks becomes the nearest one it has.
    public func index(among count: Int) -> Int? {
        let available = max(8, min(256, count))
        switch self {
        case .terminal:
            return nil
        case .indexed(let index) where index < available:
            return index
        case .indexed(let index):
            return Self.nearest(to: Self.rgb(ofIndex: index), among: available)
        case .rgb(let red, let green, let blue):
            return Self.nearest(to: (red, green, blue), among: available)
        }
    }

    /// xterm's colours: the 16 system ones, the 6×6×6 cube, the 24 greys.
    static func rgb(ofIndex index: Int) -> (Int, Int, Int) {
        let system = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
            (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        switch index {
        case 0..<16: return system[index]
        case 16..<232:
            let levels = [0, 95, 135, 175, 215, 255]
            let cube = index - 16
            return (levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
        default:
            let grey = 8 + 10 * (min(255, index) - 232)
            return (grey, grey, grey)
        }
    }

    private static func nearest(to colour: (Int, Int, Int), among count: Int) -> Int {
        func distance(_ index: Int) -> Int {
            let other = rgb(ofIndex: index)
            let (dr, dg, db) = (colour.0 - other.0, colour.1 - other.1, colour.2 - other.2)
            return dr * dr + dg * dg + db * db
        }
        // Among 256, the system colours (which users retheme) are left out.
        let candidates = count >= 256 ? Array(16..<256) : Array(0..<count)
        return candidates.min { distance($0) < distance($1) } ?? 0
    }
}

/// How one role of the UI is drawn: its colours and attributes.
public struct ThemeEntry: Hashable, Sendable {
    public var foreground: ThemeColour
    public var background: ThemeColour
    public var bold: Bool
    public var underline: Bool
    public var reverse: Bool
    public var dim: Bool
    public var italic: Bool

    public init(
        _ foreground: ThemeColour = .terminal, on background: ThemeColour = .terminal, bold: Bool = false, underline: Bool = false,
        reverse: Bool = false, dim: Bool = false, italic: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.underline = underline
        self.reverse = reverse
        self.dim = dim
        self.italic = italic
    }

    /// Whether it sets a colour (else attributes alone draw it).
    public var isColoured: Bool { foreground != .terminal || background != .terminal }
}

/// The colours and attributes of every role the UI draws (`Style`): the built-in themes,
/// and a file's changes to one of them.
public struct Theme: Hashable, Sendable {
    public var name: String
    public var entries: [Style: ThemeEntry]

    public init(name: String, entries: [Style: ThemeEntry]) {
        self.name = name
        self.entries = entries
    }

    public subscript(style: Style) -> ThemeEntry {
        get { entries[style] ?? ThemeEntry() }
        set { entries[style] = newValue }
    }

    /// The roles a config file names, each with its `Style` and what it colours.
    public static let roles: [(name: String, style: Style, what: LocalizedText)] = [
        ("accent", .accent, "highlights: the search prompt, keys in the help"),
        ("marks", .marks, "the ★ and ✓ marks"),
        ("selection", .selection, "the selected row"),
        ("dim", .dim, "secondary text: labels, column headings"),
        ("error", .error, "errors"),
        ("success", .success, "what went well"),
        ("header", .header, "the header bar"),
        ("active_tab", .activeTab, "the current tab"),
        ("footer", .key, "key names in the footer"),
        ("heading", .heading, "a lesson's headings"),
        ("link", .link, "a lesson's links"),
        ("code", .code, "a lesson's code"),
        ("quote", .quote, "a lesson's quote bars"),
    ]

    public static let builtInNames = ["default", "light", "high-contrast", "mono"]

    public static func named(_ name: String) -> Theme? {
        switch name {
        case "default": .standard
        case "light": .light
        case "high-contrast": .highContrast
        case "mono": .mono
        default: nil
        }
    }

    /// Colours on the terminal's own background, chosen to read on light and dark alike.
    public static let standard = Theme(
        name: "default",
        entries: base.merging(
            [
                .accent: ThemeEntry(.indexed(5), bold: true),
                .marks: ThemeEntry(.indexed(5), bold: true),
                .selection: ThemeEntry(.indexed(0), on: .indexed(6)),
                .header: ThemeEntry(.indexed(7), on: .indexed(4)),
                .activeTab: ThemeEntry(.indexed(4), on: .indexed(7), bold: true),
                .error: ThemeEntry(.indexed(1), bold: true),
                .success: ThemeEntry(.indexed(2), bold: true),
                .heading: ThemeEntry(.indexed(4), bold: true),
                // Both colours set, so code reads on light and dark themes alike.
                .code: ThemeEntry(.indexed(0), on: .indexed(7)),
                .link: ThemeEntry(.indexed(4), underline: true),
            ], uniquingKeysWith: { $1 }))

    /// For light terminal backgrounds: darker colours, a pale selection.
    public static let light = Theme(
        name: "light",
        entries: base.merging(
            [
                .accent: ThemeEntry(.indexed(90), bold: true),
                .marks: ThemeEntry(.indexed(130), bold: true),
                .selection: ThemeEntry(.indexed(16), on: .indexed(153)),
                .header: ThemeEntry(.indexed(231), on: .indexed(24)),
                .activeTab: ThemeEntry(.indexed(24), on: .indexed(231), bold: true),
                .error: ThemeEntry(.indexed(124), bold: true),
                .success: ThemeEntry(.indexed(28), bold: true),
                .heading: ThemeEntry(.indexed(24), bold: true),
                .code: ThemeEntry(.indexed(16), on: .indexed(254)),
                .link: ThemeEntry(.indexed(25), underline: true),
                .key: ThemeEntry(.indexed(16), bold: true),
            ], uniquingKeysWith: { $1 }))

    /// Bright colours on black and white, bold where it helps: for low vision and glare.
    public static let highContrast = Theme(
        name: "high-contrast",
        entries: base.merging(
            [
                .dim: ThemeEntry(),
                .accent: ThemeEntry(.indexed(11), bold: true),
                .marks: ThemeEntry(.indexed(11), bold: true),
                .selection: ThemeEntry(.indexed(0), on: .indexed(11), bold: true),
                .header: ThemeEntry(.indexed(15), on: .indexed(0), bold: true),
                .activeTab: ThemeEntry(.indexed(0), on: .indexed(15), bold: true),
                .error: ThemeEntry(.indexed(9), bold: true, underline: true),
                .success: ThemeEntry(.indexed(10), bold: true),
                .heading: ThemeEntry(.indexed(15), bold: true, underline: true),
                .code: ThemeEntry(.indexed(15), on: .indexed(0)),
                .link: ThemeEntry(.indexed(14), bold: true, underline: true),
                .key: ThemeEntry(.indexed(11), bold: true),
                .quote: ThemeEntry(.indexed(15)),
            ], uniquingKeysWith: { $1 }))

    /// No colour at all: attributes alone (what `NO_COLOR` and a terminal without colours get).
    public static let mono = Theme(
        name: "mono",
        entries: base.merging(
            [
                .accent: ThemeEntry(bold: true),
                .marks: ThemeEntry(bold: true),
                .selection: ThemeEntry(reverse: true),
                .header: ThemeEntry(reverse: true),
                .activeTab: ThemeEntry(bold: true),
                .error: ThemeEntry(bold: true),
                .success: ThemeEntry(bold: true),
                .heading: ThemeEntry(bold: true, underline: true),
                .code: ThemeEntry(reverse: true),
                .link: ThemeEntry(underline: true),
            ], uniquingKeysWith: { $1 }))

    /// What every theme shares unless it says otherwise.
    private static let base: [Style: ThemeEntry] = [
        .normal: ThemeEntry(),
        .dim: ThemeEntry(dim: true),
        .bold: ThemeEntry(bold: true),
        .key: ThemeEntry(bold: true),
        .emphasis: ThemeEntry(italic: true),
        .strong: ThemeEntry(bold: true),
        .quote: ThemeEntry(dim: true),
    ]
}
