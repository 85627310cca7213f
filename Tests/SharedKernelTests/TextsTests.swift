import Foundation
import SharedKernel
import TestSupport
import Testing

@Suite("The app's words in every language: catalogs, plurals, numbers, prices and days")
struct TextsTests {
    static let spanish = Texts(.spanish)
    static let english = Texts.english

    @Test("every catalog has every key of English's, and English every key of theirs", arguments: Language.all)
    func complete(_ language: Language) throws {
        let english = try TextCatalog.load(.english)
        let other = try TextCatalog.load(language)
        #expect(Set(english.keys).subtracting(other.keys).sorted() == [], "missing in \(language)")
        #expect(Set(other.keys).subtracting(english.keys).sorted() == [], "only in \(language)")
    }

    @Test("a translation keeps its text's placeholders, and a plural form its count's", arguments: Language.all)
    func placeholders(_ language: Language) throws {
        let catalog = try TextCatalog.load(language)
        for (key, value) in catalog {
            #expect(Self.placeholders(in: value) == Self.placeholders(in: Self.text(of: key)), "\(language): \(key)")
        }
    }

    /// A key's text: without its plural form (`#one`) or its context (`|courses`), and only
    /// those (a `#` in the text, as in `"#rrggbb"`, is text).
    static func text(of key: String) -> String {
        var text = key
        if let form = text.range(of: #"#(zero|one|two|few|many|other)$"#, options: .regularExpression) { text.removeSubrange(form) }
        if let context = text.range(of: #"\|[a-z ]+$"#, options: .regularExpression) { text.removeSubrange(context) }
        return text
    }

    @Test("English says each text whole, as its key writes it (a plural form aside): no value cut at a # or a quote")
    func englishWhole() throws {
        for (key, value) in try TextCatalog.load(.english)
        where key.range(of: #"#(zero|one|two|few|many|other)$"#, options: .regularExpression) == nil {
            #expect(value == Self.text(of: key), "\(key)")
        }
    }

    @Test("no value is cut inside a quotation: its quotes and brackets close as its English's do", arguments: Language.all)
    func closed(_ language: Language) throws {
        let count = { (text: String, mark: Character) in text.filter { $0 == mark }.count }
        for (key, value) in try TextCatalog.load(language) {
            let english = Self.text(of: key)
            #expect(count(value, "\"") % 2 == count(english, "\"") % 2, "\(language): \(key) = \(value)")
            #expect(count(value, "(") - count(value, ")") == count(english, "(") - count(english, ")"), "\(language): \(key) = \(value)")
        }
    }

    @Test(
        "a value ends as its English does: a sentence with its stop, a question with its mark, a label with its colon",
        arguments: Language.all)
    func closingPunctuation(_ language: Language) throws {
        for (key, value) in try TextCatalog.load(language) {
            let english = Self.text(of: key)
            guard let last = english.last, ".?:…!".contains(last) else { continue }
            #expect(value.last == last, "\(language): \(key) = \(value)")
        }
    }

    /// How many values a text takes: `%@`, `%1$@`…, not `%%`.
    private static func placeholders(in text: String) -> Int {
        var count = 0
        var rest = text[...]
        while let percent = rest.firstIndex(of: "%") {
            rest = rest[rest.index(after: percent)...]
            if rest.first == "%" {
                rest = rest.dropFirst()
            } else {
                count += 1
            }
        }
        return count
    }

    @Test(
        "plural forms, as each language counts",
        arguments: [
            (Language.english, 1, "1 course"), (.english, 2, "2 courses"), (.english, 0, "0 courses"),
            (.spanish, 1, "1 curso"), (.spanish, 2, "2 cursos"), (.spanish, 0, "0 cursos"),
            (.spanish, 12_000, "12.000 cursos"), (.english, 12_000, "12000 courses"),
        ] as [(Language, Int, String)])
    func plurals(language: Language, count: Int, expected: String) {
        #expect(Texts(language)("\(count) courses") == expected)
    }

    @Test(
        "the count that chooses the form can come second; words of one language never leak into another",
        arguments: [
            (Language.english, 1, 1, "1 of 1 lesson"), (.english, 1, 6, "1 of 6 lessons"),
            (.spanish, 1, 1, "1 de 1 lección"), (.spanish, 3, 6, "3 de 6 lecciones"),
        ] as [(Language, Int, Int, String)])
    func pluralOfSecond(language: Language, done: Int, total: Int, expected: String) {
        #expect(Texts(language)("\(done) of \(plural: total) lessons") == expected)
    }

    @Test("numbers, prices and days as each language writes them")
    func formats() throws {
        let price = Price(minorUnits: 3599, currency: "EUR")
        #expect(Self.english("\(price)") == "35.99 EUR")
        #expect(Self.spanish("\(price)") == "35,99 €")
        #expect(Self.spanish("\(Price(minorUnits: 123_456_700, currency: "USD"))") == "1.234.567,00 US$")
        #expect(Self.english("\(Price(minorUnits: 0, currency: "EUR"))") == "Free")
        #expect(Self.spanish("\(Price(minorUnits: 0, currency: "EUR"))") == "Gratis")
        #expect(Language.spanish.number(1000) == "1000")
        #expect(Language.spanish.number(10_000) == "10.000")
        #expect(Language.spanish.number(-1_234_567) == "-1.234.567")
        let day = try #require(ISO8601DateFormatter().date(from: "2026-11-14T12:00:00Z"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(Self.english.day(day, timeZone: utc) == "14 Nov 2026")
        #expect(Self.spanish.day(day, timeZone: utc) == "14 nov 2026")
    }

    @Test("arguments go where the translation puts them; data is never translated; a missing key reads as English")
    func arguments() {
        let swapped = Texts(.spanish, table: ["%@ by %@": "de %2$@: %1$@"])
        #expect(swapped("\("Swift") by \("Ana")") == "de Ana: Swift")
        #expect(Self.spanish("\("Catalog")") == "Catalog", "a title that happens to be a word of the app")
        #expect(Self.spanish("Ir a \(LocalizedText("Catalog"))") == "Ir a Catálogo", "words of the app inside others")
        #expect(Self.spanish("A text no catalog has") == "A text no catalog has")
        #expect(Self.spanish("100% \("sure")") == "100% sure")
    }

    @Test("a category shows in the learner's language where the catalog has its name; any other, and its %, as the data gives it")
    func categoryNames() {
        func shown(_ category: String, _ language: Language) -> String? {
            var course = Course.fixture(id: "c", title: "C")
            course.category = category
            return course.categoryName.map { Texts(language)($0) }
        }
        #expect(shown("Business", .spanish) == "Negocios")
        #expect(shown("DevOps & Cloud", .spanish) == "DevOps y nube")
        #expect(shown("Business", .english) == "Business")
        #expect(shown("Cooking", .spanish) == "Cooking")
        #expect(shown("100% %@ Data", .spanish) == "100% %@ Data")
    }

    @Test(
        "the language: --language, else the config file's, else LC_ALL, LC_MESSAGES, LANG (the first not empty), else English",
        arguments: [
            ("es", [:], nil, Language.spanish),
            (nil, ["LANG": "es_ES.UTF-8"], nil, .spanish),
            (nil, ["LC_ALL": "", "LC_MESSAGES": "es_MX", "LANG": "en_US.UTF-8"], nil, .spanish),
            // The file's line wins over a locale that merely names English (the usual default).
            (nil, ["LANG": "en_US.UTF-8"], "es", .spanish),
            (nil, ["LC_ALL": "en_GB.UTF-8", "LANG": "es_ES.UTF-8"], "es", .spanish),
            (nil, ["LANG": "es_ES.UTF-8"], "en", .english),
            (nil, ["LANG": "C.UTF-8"], "es", .spanish),
            (nil, ["LANG": "fr_FR.UTF-8"], "es", .spanish),
            (nil, ["LANG": "fr_FR.UTF-8"], nil, .english),
            (nil, ["LC_ALL": "C"], nil, .english),
            ("en", ["LANG": "es_ES.UTF-8"], "es", .english),
        ] as [(String?, [String: String], String?, Language)])
    func choice(option: String?, environment: [String: String], configured: String?, expected: Language) {
        #expect(Language.chosen(option: option, environment: environment, configured: configured) == expected)
    }

    @Test("a catalog file: comments, escapes; a key given twice or a line left open is refused with its line")
    func catalogFile() throws {
        let entries = try TextCatalog.parse(
            """
            /* A comment
               over lines */
            "a \\"quoted\\" word" = "una palabra \\"citada\\"";
            // a line comment
            "two\\nlines" = "dos\\nlíneas";
            "acción \\ü" = "€ 😀\\t";
            """)
        #expect(
            entries == [
                "a \"quoted\" word": "una palabra \"citada\"", "two\nlines": "dos\nlíneas", "acción ü": "€ 😀\t",
            ])
        #expect(throws: TextCatalog.Malformed.self) { try TextCatalog.parse("\"a\" = \"b\";\n\"a\" = \"c\";\n") }
        do {
            _ = try TextCatalog.parse("\"a\" = \"b\";\n\"c\" = \"d\"\n\"e\" = \"f\";")
            Issue.record("a missing ; was taken")
        } catch let malformed as TextCatalog.Malformed {
            #expect(malformed.line == 3)
        }
    }
}
