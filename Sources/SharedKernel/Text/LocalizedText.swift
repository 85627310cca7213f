import Foundation

/// Words for the person at the terminal, kept as their English text and its arguments until
/// they are drawn (`Texts.resolve`), in the language of that moment — as SwiftUI keeps a
/// `LocalizedStringKey`. Written as a string literal or interpolation, so view-models and
/// declarations say `"Enrolled in \(title)"` and stay free of any language: the key is
/// `Enrolled in %@`, the title its argument. A key that is the text itself is what a
/// catalog translates (`Resources/es.lproj/Localizable.strings`).
public struct LocalizedText: Hashable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// What fills a `%@`: a text, a nested translation, a price, a day, or a count (which also
    /// chooses the plural form).
    public enum Argument: Hashable, Sendable {
        /// Shown as it is: a title, a name, what was typed.
        case verbatim(String)
        case count(Int)
        /// A count that chooses the plural form though another comes first (`3 of 6 lessons`).
        case pluralCount(Int)
        case localized(LocalizedText)
        case price(Price)
        case day(Date)
    }

    /// The English text with `%@` where each argument goes (whatever it is: a count chooses
    /// the plural form by its kind, not by its placeholder), `%%` for a `%`.
    public let key: String
    public let arguments: [Argument]
    /// Tells apart the same English words meant two ways (`2 left`: seats, or courses left):
    /// the catalog's key is `key|context`.
    public private(set) var context: String?

    public init(key: String, arguments: [Argument] = []) {
        self.key = key
        self.arguments = arguments
    }

    /// The same words, as the catalog knows them in `context`.
    public func context(_ context: String) -> LocalizedText {
        var text = self
        text.context = context
        return text
    }

    /// The key a catalog holds this text under.
    public var catalogKey: String { context.map { key + "|" + $0 } ?? key }

    /// `%` as `%%`, the catalog's way; the text itself when it has none, which is nearly
    /// always (Foundation's `replacingOccurrences` cost a sixth of a catalog frame).
    static func escapingPercent(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 2)
        for character in text {
            if character == "%" { escaped += "%%" } else { escaped.append(character) }
        }
        return escaped
    }

    public init(stringLiteral value: String) {
        self.key = Self.escapingPercent(value)
        self.arguments = []
    }

    public init(stringInterpolation: StringInterpolation) {
        self.key = stringInterpolation.key
        self.arguments = stringInterpolation.arguments
    }

    /// Text that is never translated: data (a course's title), or words already resolved.
    public static func verbatim(_ text: String) -> LocalizedText {
        LocalizedText(key: "%@", arguments: [.verbatim(text)])
    }

    /// The English text, for logs and for tests that read what English speakers see.
    public var english: String { Texts.english.resolve(self) }
    public var description: String { english }

    /// Texts are the same when they read the same in English (`"Use \(8) characters"` is
    /// `"Use 8 characters"`), whatever their parts.
    public static func == (lhs: LocalizedText, rhs: LocalizedText) -> Bool {
        (lhs.key == rhs.key && lhs.arguments == rhs.arguments && lhs.context == rhs.context) || lhs.english == rhs.english
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(english)
    }

    public static func + (lhs: LocalizedText, rhs: LocalizedText) -> LocalizedText {
        LocalizedText(key: "%@%@", arguments: [.localized(lhs), .localized(rhs)])
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var key = ""
        var arguments: [Argument] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            key.reserveCapacity(literalCapacity + 2 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            key += LocalizedText.escapingPercent(literal)
        }

        /// Data, shown as it is.
        public mutating func appendInterpolation(_ text: String) {
            key += "%@"
            arguments.append(.verbatim(text))
        }

        public mutating func appendInterpolation(_ text: Substring) {
            appendInterpolation(String(text))
        }

        /// Words of the app, translated too.
        public mutating func appendInterpolation(_ text: LocalizedText) {
            key += "%@"
            arguments.append(.localized(text))
        }

        /// A count: written as the language writes numbers; the first one chooses the plural.
        public mutating func appendInterpolation(_ count: Int) {
            key += "%@"
            arguments.append(.count(count))
        }

        /// The count whose plural form the text takes: `"\(done) of \(plural: total) lessons"`.
        public mutating func appendInterpolation(plural count: Int) {
            key += "%@"
            arguments.append(.pluralCount(count))
        }

        public mutating func appendInterpolation(_ price: Price) {
            key += "%@"
            arguments.append(.price(price))
        }

        /// A day, as `14 Nov 2026` / `14 nov 2026`.
        public mutating func appendInterpolation(day: Date) {
            key += "%@"
            arguments.append(.day(day))
        }

        /// Anything else shown as it prints (a host, a size): never translated.
        public mutating func appendInterpolation(verbatim value: some CustomStringConvertible) {
            appendInterpolation(value.description)
        }
    }
}
