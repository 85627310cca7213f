/// What the search field asks of the catalog: words that must each start a word of the
/// title, the instructor or a tag, and `key:value` filters. Parsed the same way by every
/// store, so local, remote and PostgreSQL answer alike.
public struct CatalogQuery: Hashable, Sendable {
    /// What was typed, as typed (the API takes it as is).
    public let text: String
    /// Folded words, each a prefix.
    public var words: [String] = []
    /// `cat:` / `category:`: the category starts with this (folded, letters and digits).
    public var category: String?
    /// `level:`.
    public var level: CourseLevel?
    /// `is:free`: price 0.
    public var isFree = false
    /// `is:open`: the learner can enroll now (active, a seat left, prerequisite completed,
    /// not enrolled).
    public var isOpen = false
    /// `is:enrolled`: the learner's own.
    public var isEnrolled = false
    /// `is:favourite`: the learner's own.
    public var isFavourite = false
    /// Filters that were not understood (`key:` or `key:value`), which filter nothing.
    public var unknown: [String] = []
    /// Something was typed, but no letter or digit to look for: nothing matches.
    public var matchesNothing = false
    /// The order of the answer (not typed: `s` and `S` choose it). Counts never depend on it.
    public var sort = CatalogSort.title

    /// The keys the search understands, for the help.
    public static let filterHelp: [(key: String, help: LocalizedText)] = [
        ("word", "every word starts a word of the title, instructor or a tag"),
        ("cat:word", "the category starts with the word (also category:; several words in quotes: cat:\"data sc\")"),
        ("level:beg", "beginner, intermediate, advanced (beg, int, adv)"),
        ("is:free", "price 0"),
        ("is:open", "you can enroll now"),
        ("is:enrolled", "your courses"),
        ("is:favourite", "your favourites"),
    ]

    public init(text: String) {
        self.text = text
    }

    /// The whole catalog: nothing typed, or only filters that were not understood.
    public var isEverything: Bool {
        words.isEmpty && !hasFilters && !matchesNothing
    }

    /// What a query asks, however it was typed (spaces, case, accents): equal for two queries
    /// that ask the same, and a key for what is kept by query (`PageCache`).
    public struct Meaning: Hashable, Sendable {
        let words: [String]
        let category: String?
        let level: CourseLevel?
        let filters: [Bool]
        let sort: CatalogSort
    }

    public var meaning: Meaning {
        Meaning(
            words: words, category: category, level: level, filters: [isFree, isOpen, isEnrolled, isFavourite, matchesNothing],
            sort: sort)
    }

    /// Whether two queries ask the same, however they were typed (spaces, case, accents).
    public func asksTheSame(as other: CatalogQuery) -> Bool {
        meaning == other.meaning
    }

    /// The query in title order: what its count is kept under (the order never changes a count).
    public var unsorted: CatalogQuery {
        var query = self
        query.sort = .title
        return query
    }

    /// The query as text again, with only what was understood (folded words, then the
    /// filters): parsing it asks the same. For a store that passes the query on (the remote
    /// one), so a filter nobody understood filters nothing there either. Empty for a query
    /// that matches nothing; ask `matchesNothing` first.
    public var understoodText: String {
        var parts = words
        if let category { parts.append("cat:\(category)") }
        if let level { parts.append("level:\(level.rawValue)") }
        if isFree { parts.append("is:free") }
        if isOpen { parts.append("is:open") }
        if isEnrolled { parts.append("is:enrolled") }
        if isFavourite { parts.append("is:favourite") }
        return parts.joined(separator: " ")
    }

    /// Every store counts matches up to this many; past it the count is `.atLeast` this. A
    /// query that checks each match against the learner's own rows (`is:open`) stops sooner:
    /// those checks cost several index reads per match.
    public var countLimit: Int { isOpen ? 1_000 : 10_000 }

    /// Whether the answer depends on who asks (`is:open`, `is:enrolled`, `is:favourite`).
    public var dependsOnLearner: Bool { isOpen || isEnrolled || isFavourite }

    /// The message for filters that were not understood: `Unknown filter "key:" — the filters
    /// are cat:, level: and is:`. It names them, not a key: while the search field has the
    /// keyboard, `?` would be typed into it.
    public var unknownMessage: LocalizedText? {
        unknown.first.map { "Unknown filter \"\($0)\" — the filters are cat:, level: and is:" }
    }

    public static func parse(_ text: String) -> CatalogQuery {
        var query = CatalogQuery(text: text)
        // Only punctuation typed (no word, no filter, not even one being typed): no match.
        var onlyPunctuation = false
        for token in tokens(text) {
            if let colon = token.firstIndex(of: ":"), colon != token.startIndex,
                token[..<colon].allSatisfy({ $0.isLetter && $0.isASCII })
            {
                var value = token[token.index(after: colon)...]
                if value.first == "\"" { value = value.dropFirst().prefix { $0 != "\"" } }
                query.apply(key: token[..<colon].lowercased(), value: String(value))
                onlyPunctuation = false
            } else {
                let words = TextFolding.words(String(token))
                query.words += words
                if words.isEmpty, query.words.isEmpty, !query.hasFilters { onlyPunctuation = true } else { onlyPunctuation = false }
            }
        }
        query.matchesNothing = onlyPunctuation && query.words.isEmpty && !query.hasFilters && query.unknown.isEmpty
        return query
    }

    /// The text split at white space, except inside the quotes of a filter's value
    /// (`cat:"data science"` is one token; a quote left open runs to the end).
    static func tokens(_ text: String) -> [Substring] {
        var tokens: [Substring] = []
        var index = text.startIndex
        while index < text.endIndex {
            guard !text[index].isWhitespace else {
                index = text.index(after: index)
                continue
            }
            let start = index
            var inQuotes = false
            while index < text.endIndex, inQuotes || !text[index].isWhitespace {
                if text[index] == "\"", text[start..<index].hasSuffix(":") || inQuotes { inQuotes.toggle() }
                index = text.index(after: index)
            }
            tokens.append(text[start..<index])
        }
        return tokens
    }

    private var hasFilters: Bool {
        category != nil || level != nil || isFree || isOpen || isEnrolled || isFavourite
    }

    private mutating func apply(key: String, value: String) {
        let folded = TextFolding.key(value)
        // Spanish keys and values too (`nivel:principiante`, `es:gratis`, `categoria:`), in any UI
        // language: the filters are the same words to every store and the API.
        switch key {
        case "cat", "category", "categoria":
            if !folded.isEmpty { category = Self.ownCategory(folded) }
        case "level", "nivel":
            guard !folded.isEmpty else { return }
            if let found = CourseLevel.allCases.first(where: { $0.rawValue.hasPrefix(folded) || $0.spanishName.hasPrefix(folded) }) {
                level = found
            } else {
                unknown.append("\(key):\(value)")
            }
        case "is", "es":
            switch folded {
            case "": break
            case "free", "gratis": isFree = true
            case "open", "abierto", "abierta", "abiertos": isOpen = true
            case "enrolled", "inscrito", "inscrita", "inscritos": isEnrolled = true
            case "favourite", "favorite", "fav", "favorito", "favorita", "favoritos": isFavourite = true
            default: unknown.append("\(key):\(value)")
            }
        default:
            unknown.append("\(key):")
        }
    }

    /// A category's name as the data gives it and as each other language shows it, folded:
    /// the catalog's `Name|category` entries.
    static let translatedCategories: [(own: String, translated: String)] = Language.all.dropFirst().flatMap { language in
        Texts.entries(of: language).compactMap { key, value -> (own: String, translated: String)? in
            let suffix = "|" + Course.categoryContext
            guard key.hasSuffix(suffix), !key.contains("#") else { return nil }
            return (TextFolding.key(String(key.dropLast(suffix.count))), TextFolding.key(value))
        }
    }

    /// `cat:` as the stores match it, on the data's names: a prefix of no category's own name
    /// that starts the translated name of exactly one (`cat:negocios`, shown as `Negocios`)
    /// stands for that category's own (`business`).
    static func ownCategory(_ folded: String) -> String {
        guard !translatedCategories.contains(where: { $0.own.hasPrefix(folded) }) else { return folded }
        let owners = Set(translatedCategories.filter { $0.translated.hasPrefix(folded) }.map(\.own))
        if owners.count == 1, let own = owners.first { return own }
        return folded
    }

    /// A course as the search sees it: its folded words and category, worked out once.
    public struct Subject: Sendable {
        public let course: Course
        let words: [String]
        let category: String

        public init(_ course: Course) {
            self.course = course
            words = ([course.title, course.instructor] + course.tags).flatMap(TextFolding.words(_:))
            category = TextFolding.key(course.category ?? "")
        }
    }

    /// Whether `course` passes the filters and words, for a learner whose relation to courses
    /// `marks` gives: the rules every store's answer must agree with.
    public func matches(_ course: Course, marks: CourseMarks) -> Bool {
        matches(Subject(course), marks: marks)
    }

    public func matches(_ subject: Subject, marks: CourseMarks) -> Bool {
        guard !matchesNothing else { return false }
        let course = subject.course
        if !words.isEmpty {
            guard words.allSatisfy({ word in subject.words.contains { $0.hasPrefix(word) } }) else { return false }
        }
        if let category, !subject.category.hasPrefix(category) { return false }
        if let level, course.level != level { return false }
        if isFree, !course.price.isFree { return false }
        if isEnrolled, !marks.isEnrolled { return false }
        if isFavourite, !marks.isFavourite { return false }
        if isOpen, marks.isEnrolled || EnrollmentRules.block(for: course, marks: marks) != nil { return false }
        return true
    }
}
