import Foundation
import SharedKernel
import Testing

@Suite("Folding and filters")
struct CatalogQueryTests {
    @Test(
        "letters fold as a person types them: accents, case, width, and letters with no decomposition",
        arguments: [
            ("Søren Lindqvist", ["soren", "lindqvist"]),
            ("ŁUKASZ Nowak", ["lukasz", "nowak"]),
            ("İlker Yılmaz", ["ilker", "yilmaz"]),
            ("Đorđe Ðapić", ["dorde", "dapic"]),
            ("Straße", ["strasse"]),
            ("Æble Œuvre", ["aeble", "oeuvre"]),
            ("Þór", ["thor"]),
            ("José Núñez", ["jose", "nunez"]),
            ("Chloé Dubois", ["chloe", "dubois"]),
            ("ＦＵＬＬ ｗｉｄｔｈ", ["full", "width"]),
            ("Ĳssel ﬁle", ["ijssel", "file"]),
            ("王芳 (Wang Fang)", ["王芳", "wang", "fang"]),
            ("CI/CD: Pipelines", ["ci", "cd", "pipelines"]),
            ("C++ & Swift 6", ["c", "swift", "6"]),
        ])
    func folding(text: String, words: [String]) {
        #expect(TextFolding.words(text) == words)
    }

    @Test("ASCII folds as Foundation folds it, character by character and in words")
    func asciiFolding() {
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]
        let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) } + ["Hello World\r\n", "C++ & Swift 6", "ZZ top ^`~"]
        for text in ascii {
            #expect(TextFolding.fold(text) == text.folding(options: options, locale: nil), "\(Array(text.utf8))")
        }
        #expect(TextFolding.fold("Søren Ærø") == "soren aero", "anything else takes Foundation's way and the letters' table")
    }

    /// What a query asks, written out for the table below.
    struct Asked: Equatable, CustomStringConvertible {
        var words: [String] = []
        var category: String?
        var level: CourseLevel?
        var free = false
        var open = false
        var enrolled = false
        var favourite = false
        var unknown: String?
        var nothing = false

        init(_ query: CatalogQuery) {
            words = query.words
            category = query.category
            level = query.level
            free = query.isFree
            open = query.isOpen
            enrolled = query.isEnrolled
            favourite = query.isFavourite
            unknown = query.unknownMessage?.english
            nothing = query.matchesNothing
        }

        init(
            words: [String] = [], category: String? = nil, level: CourseLevel? = nil, free: Bool = false, open: Bool = false,
            enrolled: Bool = false, favourite: Bool = false, unknown: String? = nil, nothing: Bool = false
        ) {
            (self.words, self.category, self.level, self.free, self.open) = (words, category, level, free, open)
            (self.enrolled, self.favourite, self.unknown, self.nothing) = (enrolled, favourite, unknown, nothing)
        }

        var description: String {
            "words \(words) cat \(category ?? "-") level \(level?.rawValue ?? "-") free \(free) open \(open) enrolled \(enrolled) fav \(favourite) unknown \(unknown ?? "-") nothing \(nothing)"
        }
    }

    @Test(
        "the search field's text as the catalog reads it",
        arguments: [
            ("", Asked()),
            ("  Swift   Concurrency ", Asked(words: ["swift", "concurrency"])),
            ("cat:design", Asked(category: "design")),
            ("category:Data", Asked(category: "data")),
            ("CAT:Développement", Asked(category: "developpement")),
            ("cat:\"data science\" python", Asked(words: ["python"], category: "datascience")),
            ("cat:\"devops & cl", Asked(category: "devopscl")),
            ("cat:", Asked()),
            ("level:beg", Asked(level: .beginner)),
            ("level:Intermediate swift", Asked(words: ["swift"], level: .intermediate)),
            ("level:a", Asked(level: .advanced)),
            ("level:expert", Asked(unknown: "Unknown filter \"level:expert\" — the filters are cat:, level: and is:")),
            ("is:free is:open", Asked(free: true, open: true)),
            ("is:enrolled is:favourite", Asked(enrolled: true, favourite: true)),
            ("is:favorite", Asked(favourite: true)),
            ("is:", Asked()),
            // The Spanish keys and values, in any language of the UI.
            ("es:gratis nivel:principiante", Asked(level: .beginner, free: true)),
            ("is:gratis es:abierto", Asked(free: true, open: true)),
            ("es:inscrito es:favorito", Asked(enrolled: true, favourite: true)),
            // A category by the name Spanish shows it with (`Diseño`): the data's own name.
            ("nivel:ava categoria:Diseño", Asked(category: "design", level: .advanced)),
            ("cat:negocios", Asked(category: "business")),
            ("cat:neg", Asked(category: "business")),
            ("cat:\"fotografía y m", Asked(category: "photographymusic")),
            ("cat:idiomas", Asked(category: "languages")),
            // A prefix of a name the data gives wins; one that starts several translated names stays.
            ("cat:de", Asked(category: "de")),
            ("cat:d", Asked(category: "d")),
            ("cat:ciencia", Asked(category: "datascience")),
            ("cat:zzz", Asked(category: "zzz")),
            ("nivel:inter", Asked(level: .intermediate)),
            ("nivel:experto", Asked(unknown: "Unknown filter \"nivel:experto\" — the filters are cat:, level: and is:")),
            ("es:caro", Asked(unknown: "Unknown filter \"es:caro\" — the filters are cat:, level: and is:")),
            ("foo:bar docker", Asked(words: ["docker"], unknown: "Unknown filter \"foo:\" — the filters are cat:, level: and is:")),
            ("12:30", Asked(words: ["12", "30"])),
            (":swift", Asked(words: ["swift"])),
            ("c++", Asked(words: ["c"])),
            ("?!", Asked(nothing: true)),
            ("søren level:adv is:open", Asked(words: ["soren"], level: .advanced, open: true)),
        ])
    func parsing(text: String, asked: Asked) {
        #expect(Asked(CatalogQuery.parse(text)) == asked)
    }

    @Test("two texts ask the same when only spacing, case or accents differ; the learner's filters and the count limit follow")
    func sameQuestion() {
        #expect(CatalogQuery.parse("Núñez  level:BEG").asksTheSame(as: CatalogQuery.parse("nunez level:beginner")))
        #expect(!CatalogQuery.parse("nunez").asksTheSame(as: CatalogQuery.parse("nunez is:free")))
        #expect(CatalogQuery.parse("foo:bar").asksTheSame(as: CatalogQuery.parse("")), "an unknown filter filters nothing")
        #expect(CatalogQuery.parse("is:open").dependsOnLearner)
        #expect(!CatalogQuery.parse("cat:data level:adv").dependsOnLearner)
        #expect(CatalogQuery.parse("is:open").countLimit < CatalogQuery.parse("swift").countLimit)
    }

    @Test(
        "the understood text asks the same and drops what was not understood",
        arguments: [
            "Núñez  level:BEG", "swift is:free is:open", "cat:\"Web Dev\" async", "is:fav is:enrolled", "bogus:thing basics", "level:xyz",
            "",
            "Straße Æble 3D",
        ])
    func understoodText(text: String) {
        let query = CatalogQuery.parse(text)
        let again = CatalogQuery.parse(query.understoodText)
        #expect(again.asksTheSame(as: query))
        #expect(again.unknown.isEmpty)
    }
}
