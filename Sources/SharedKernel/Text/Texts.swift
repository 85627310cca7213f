import Foundation
import Synchronization

/// The app's words in one language: `LocalizedText` resolved through that language's
/// catalog, with English's for any key the catalog lacks, and counts, prices and days written
/// as the language writes them. Made once, where the app starts (`Texts(language)`), and
/// handed to whatever draws.
public struct Texts: Sendable {
    public let language: Language
    private let table: [String: String]
    /// English's table, for a key this language's catalog lacks (a test fails when one does).
    private let fallback: [String: String]

    /// English's catalog, read once for the process: every language falls back on it.
    private static let englishTable = (try? TextCatalog.load(.english)) ?? [:]

    /// English, from its catalog (which holds its plural forms: `%@ course`).
    public static let english = Texts(.english, table: englishTable, fallback: englishTable)

    /// A language's words: its own catalog read here, English's shared.
    public init(_ language: Language) {
        self.language = language
        self.fallback = Self.englishTable
        self.table = Self.table(of: language)
    }

    /// Each catalog is read and parsed once for the process: a server makes the texts of every
    /// language it speaks, and tests make many servers.
    private static let loaded = Mutex<[String: [String: String]]>([:])

    /// A language's catalog, key by key (English's own for English).
    public static func entries(of language: Language) -> [String: String] {
        table(of: language)
    }

    private static func table(of language: Language) -> [String: String] {
        if language == .english { return englishTable }
        if let table = loaded.withLock({ $0[language.code] }) { return table }
        let table = (try? TextCatalog.load(language)) ?? [:]
        loaded.withLock { $0[language.code] = table }
        return table
    }

    /// A catalog given whole: English's own, and tests'.
    public init(_ language: Language, table: [String: String], fallback: [String: String] = [:]) {
        self.language = language
        self.table = table
        self.fallback = fallback
    }

    public func callAsFunction(_ text: LocalizedText) -> String {
        resolve(text)
    }

    public func resolve(_ text: LocalizedText) -> String {
        if text.key == "%@", text.arguments.count == 1 { return render(text.arguments[0]) }
        return fill(template(for: text), text.arguments)
    }

    /// The translation of `text`'s key, in the plural form its first count asks for.
    private func template(for text: LocalizedText) -> String {
        let chosen = text.arguments.lazy.compactMap { argument -> Int? in
            if case .pluralCount(let count) = argument { return count }
            return nil
        }.first
        let count =
            chosen
            ?? text.arguments.lazy.compactMap { argument -> Int? in
                if case .count(let count) = argument { return count }
                return nil
            }.first
        let key = text.catalogKey
        if let count {
            let form = key + "#" + language.pluralCategory(count)
            if let found = table[form] ?? table[key] ?? fallback[form] { return found }
        }
        return table[key] ?? fallback[key] ?? text.key
    }

    /// `%@` and `%d` take the next argument, `%2$@` the second; `%%` is a `%`.
    private func fill(_ template: String, _ arguments: [LocalizedText.Argument]) -> String {
        // Bytes, not Foundation's `contains` of a string (a search through NSString): every row of
        // every frame fills its texts.
        guard template.utf8.contains(UInt8(ascii: "%")) else { return template }
        var result = ""
        var next = 0
        var characters = template[...]
        while let percent = characters.firstIndex(of: "%") {
            result += characters[..<percent]
            characters = characters[characters.index(after: percent)...]
            if characters.first == "%" {
                result += "%"
                characters = characters.dropFirst()
                continue
            }
            var position: Int?
            let digits = characters.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, characters.dropFirst(digits.count).first == "$" {
                position = Int(digits).map { $0 - 1 }
                characters = characters.dropFirst(digits.count + 1)
            }
            guard let kind = characters.first, kind == "@" || kind == "d" else {
                result += "%"
                continue
            }
            characters = characters.dropFirst()
            let index = position ?? next
            if position == nil { next += 1 }
            if arguments.indices.contains(index) { result += render(arguments[index]) }
        }
        return result + characters
    }

    private func render(_ argument: LocalizedText.Argument) -> String {
        switch argument {
        case .verbatim(let text): text
        case .count(let count), .pluralCount(let count): language.number(count)
        case .localized(let text): resolve(text)
        case .price(let price): price.isFree ? resolve("Free") : language.amount(price)
        case .day(let date): day(date)
        }
    }

    /// `14 Nov 2026` in English, `14 nov 2026` in Spanish, in the local time zone.
    public func day(_ date: Date, timeZone: TimeZone = .current) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: timeZone, from: date)
        guard let day = parts.day, let month = parts.month, let year = parts.year else { return "" }
        return "\(day) \(resolve(LocalizedText(stringLiteral: Self.months[month - 1]))) \(year)"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}

/// A language's catalog: `Resources/<code>.lproj/Localizable.strings` of this module, lines of
/// `"key" = "translation";` with `/* */` and `//` comments, read here (Foundation's reader of
/// `.strings` differs between platforms).
public enum TextCatalog {
    public struct Malformed: Error, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public static func load(_ language: Language) throws -> [String: String] {
        let folder = Bundle.module.bundleURL.appendingPathComponent("\(language.code).lproj")
        let file = folder.appendingPathComponent("Localizable.strings")
        return try parse(String(contentsOf: file, encoding: .utf8))
    }

    /// The entries of a `.strings` text. A key given twice is an error (a translator's slip).
    public static func parse(_ text: String) throws -> [String: String] {
        var entries: [String: String] = [:]
        var scanner = Scanner(text)
        while true {
            scanner.skipSpaceAndComments()
            guard !scanner.isAtEnd else { return entries }
            let line = scanner.line
            let key = try scanner.quoted()
            scanner.skipSpaceAndComments()
            try scanner.expect("=")
            scanner.skipSpaceAndComments()
            let value = try scanner.quoted()
            scanner.skipSpaceAndComments()
            try scanner.expect(";")
            guard entries.updateValue(value, forKey: key) == nil else { throw Malformed(line: line, reason: "\"\(key)\" is given twice") }
        }
    }

    /// Over the text's UTF-8 bytes: every delimiter is ASCII, so a byte that is one is one
    /// (a multi-byte character never holds an ASCII byte), and a text is copied as bytes.
    /// Characters cost a grapheme break each: a catalog read as them took ~5 ms of every start.
    private struct Scanner {
        private let bytes: [UInt8]
        private var index = 0
        private(set) var line = 1

        init(_ text: String) { bytes = Array(text.utf8) }

        var isAtEnd: Bool { index >= bytes.count }

        private func peek(_ offset: Int = 0) -> UInt8? {
            bytes.indices.contains(index + offset) ? bytes[index + offset] : nil
        }

        private mutating func advance() {
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        }

        mutating func skipSpaceAndComments() {
            let slash = UInt8(ascii: "/")
            let star = UInt8(ascii: "*")
            while let byte = peek() {
                if Self.isSpace(byte) {
                    advance()
                } else if byte == slash, peek(1) == slash {
                    while let next = peek(), next != UInt8(ascii: "\n") { advance() }
                } else if byte == slash, peek(1) == star {
                    advance()
                    advance()
                    while !isAtEnd, !(peek() == star && peek(1) == slash) { advance() }
                    if !isAtEnd {
                        advance()
                        advance()
                    }
                } else {
                    return
                }
            }
        }

        mutating func expect(_ character: Unicode.Scalar) throws {
            guard peek() == UInt8(ascii: character) else { throw Malformed(line: line, reason: "expected \(character)") }
            advance()
        }

        mutating func quoted() throws -> String {
            try expect("\"")
            var text: [UInt8] = []
            while let byte = peek() {
                advance()
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = peek() else { break }
                    advance()
                    switch escaped {
                    case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
                    default: text.append(escaped)
                    }
                default: text.append(byte)
                }
            }
            throw Malformed(line: line, reason: "a text is not closed")
        }
    }
}
