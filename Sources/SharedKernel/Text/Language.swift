/// A language the app speaks: its code, how it counts (plural forms) and writes numbers.
/// Adding one is a line in `all` and a copy of `en.lproj/Localizable.strings` (README).
public struct Language: Hashable, Sendable, CustomStringConvertible {
    /// Which plural form a count takes. CLDR's rules for the languages the app has; `one`
    /// is the form for a single thing (`1 course`), `other` the rest.
    public enum PluralRule: Hashable, Sendable {
        /// English, Spanish, German, Italian…: `one` for exactly 1.
        case oneIsOne
        /// French, Portuguese: `one` for 0 and 1.
        case oneIsZeroOrOne
    }

    /// The ISO 639-1 code: `en`, `es`; the name of the catalog's `.lproj` folder.
    public let code: String
    public let plural: PluralRule
    public let decimalSeparator: String
    public let groupingSeparator: String
    /// Numbers of fewer digits than this are written without grouping (`1000` but `10.000`
    /// in Spanish, CLDR's minimum grouping digits); `Int.max`: never grouped.
    public let groupingFromDigits: Int
    /// Prices as `35,99 €` (a symbol after the amount) rather than `35.99 EUR`.
    public let currencySymbolAfter: Bool
    /// `16 %` (a space before the sign, as Spanish writes it) rather than `16%`.
    public let spaceBeforePercent: Bool

    public var description: String { code }

    public static let english = Language(
        code: "en", plural: .oneIsOne, decimalSeparator: ".", groupingSeparator: ",",
        groupingFromDigits: .max, currencySymbolAfter: false, spaceBeforePercent: false)
    public static let spanish = Language(
        code: "es", plural: .oneIsOne, decimalSeparator: ",", groupingSeparator: ".",
        groupingFromDigits: 5, currencySymbolAfter: true, spaceBeforePercent: true)

    /// Every language with a catalog; the first is the fallback for any text another lacks.
    public static let all: [Language] = [.english, .spanish]

    /// The language of a code or a POSIX locale name (`es`, `es_ES.UTF-8`, `es-MX`); nil for
    /// a language the app does not have, and for `C`/`POSIX`, which name none.
    public init?(identifier: String) {
        let code = identifier.prefix { $0.isLetter }.lowercased()
        guard let known = Self.all.first(where: { $0.code == code }) else { return nil }
        self = known
    }

    private init(
        code: String, plural: PluralRule, decimalSeparator: String, groupingSeparator: String, groupingFromDigits: Int,
        currencySymbolAfter: Bool, spaceBeforePercent: Bool
    ) {
        self.code = code
        self.plural = plural
        self.decimalSeparator = decimalSeparator
        self.groupingSeparator = groupingSeparator
        self.groupingFromDigits = groupingFromDigits
        self.currencySymbolAfter = currencySymbolAfter
        self.spaceBeforePercent = spaceBeforePercent
    }

    /// A percentage as the language writes it: `16%`, `16 %`.
    public func percent(_ value: Int) -> String {
        number(value) + (spaceBeforePercent ? " %" : "%")
    }

    /// The plural category of `count`: `one` or `other`.
    public func pluralCategory(_ count: Int) -> String {
        switch plural {
        case .oneIsOne: count == 1 ? "one" : "other"
        case .oneIsZeroOrOne: count == 0 || count == 1 ? "one" : "other"
        }
    }

    /// The language a person asked for: `--language`, else the config file's `language`, else
    /// the first non-empty of `LC_ALL`, `LC_MESSAGES` and `LANG` (SPEC, Command line), else
    /// English. The file comes before the locale: a locale often names English only because it
    /// is the system's default (`LANG=en_US.UTF-8`), the file's line was written on purpose. A
    /// locale naming no language (`C`, `POSIX`) or one the app lacks falls through to English.
    public static func chosen(option: String?, environment: [String: String], configured: String?) -> Language {
        if let option, let language = Language(identifier: option) { return language }
        if let configured, let language = Language(identifier: configured) { return language }
        return locale(environment) ?? .english
    }

    /// The language the locale names, if it names one the app has.
    public static func locale(_ environment: [String: String]) -> Language? {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return locale.flatMap(Language.init(identifier:))
    }

    /// `count` in digits, grouped as the language groups them.
    public func number(_ count: Int) -> String {
        let digits = String(count.magnitude)
        let sign = count < 0 ? "-" : ""
        guard digits.count >= groupingFromDigits else { return sign + digits }
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return sign + groups.joined(separator: groupingSeparator)
    }

    /// `35.99 EUR`, or `35,99 €` where the language writes the symbol after the amount. The
    /// word for a free course is the catalog's (`Price.free`).
    public func amount(_ price: Price) -> String {
        let amount = price.minorUnits.magnitude
        let cents = amount % 100
        let whole = number(Int(clamping: amount / 100))
        let text = "\(price.minorUnits < 0 ? "-" : "")\(whole)\(decimalSeparator)\(cents < 10 ? "0" : "")\(cents)"
        guard currencySymbolAfter else { return "\(text) \(price.currency)" }
        return "\(text) \(Self.symbols[price.currency] ?? price.currency)"
    }

    /// `25 €`, `9.99 €`, `49 US$`: no cents when there are none, a symbol where the currency
    /// has a short one; for a narrow column (`25.00 EUR` does not fit).
    public func compactAmount(_ price: Price) -> String {
        let amount = price.minorUnits.magnitude
        let cents = amount % 100
        let whole = number(Int(clamping: amount / 100))
        let text = "\(price.minorUnits < 0 ? "-" : "")\(whole)" + (cents == 0 ? "" : "\(decimalSeparator)\(cents < 10 ? "0" : "")\(cents)")
        return "\(text) \(Self.compactSymbols[price.currency] ?? price.currency)"
    }

    private static let symbols = ["EUR": "€", "USD": "US$", "GBP": "£", "JPY": "JPY", "MXN": "MXN", "CHF": "CHF"]
    /// `$` alone would not say which dollar.
    private static let compactSymbols = ["EUR": "€", "USD": "US$", "GBP": "£"]
}
