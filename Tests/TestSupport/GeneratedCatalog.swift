import SharedKernel

/// A large, deterministic catalog for paging and search tests: titles, instructors and tags
/// drawn from word lists with accents that fold (é, ñ, ü, ç, á, ö), CJK titles, and repeated
/// titles so the id has to break ties.
public enum GeneratedCatalog {
    static let subjects = [
        "Swift", "Rust", "Python", "Data", "Design", "Cloud", "Security", "Agile", "Kotlin", "React", "Docker",
        "Linux", "Música", "Guitarra", "Español", "Français", "Deutsch", "Cocina", "Fotografía", "Finanzas",
        "Marketing", "Écriture", "Leadership", "Négociation", "Statistik", "Álgebra", "Physik", "Química",
        "Biología", "Historia", "Filosofía", "Dibujo", "Pintura", "Yoga", "Schach", "Excel", "SQL", "GraphQL",
        "Kubernetes", "Terraform", "Ética", "Privacidad", "Visión", "Audio", "Vídeo", "Über", "Öko", "Façade",
        "日本語", "中文", "한국어",
    ]
    static let qualifiers = [
        "Essentials", "Fundamentals", "Advanced", "Practical", "Modern", "Complete", "for Beginners", "Mastery",
        "Deep Dive", "Applied", "Hands-on", "Introduction", "Crash Course", "Bootcamp", "Workshop", "in Practice",
        "avanzado", "básico", "für Profis", "pour débutants", "入門", "実践",
    ]
    static let instructors = [
        "María García", "Daniel Okafor", "Renée Côté", "Ananya Iyer", "Zoë Schäfer", "Kenji Watanabe",
        "Jonas Becker", "José Núñez", "François Dubois", "Ingrid Öberg", "Çağrı Yıldız", "Aoife Ní Bhriain",
    ]

    /// Searches and filters a generated catalog is checked with, by every store: words with
    /// accents and without, CJK, prefixes, punctuation, every filter alone and together, the
    /// learner's own filters, and words that look like the stores' facet tokens.
    public static let searchQueries = [
        "swift", "swi", "garc", "GARCÍA", "garcia", "nunez", "Núñez", "über", "uber", "ecriture", "fra",
        "data fund", "o b", "e", "日本", "入門", "12345", "9", "zzz", "kubernetes work", "-", "\"swift\"", "a*",
        "cagri yildiz", "oberg", "cat:swift", "category:data", "cat:numismatics", "cat:d", "level:beg", "level:adv swift",
        "is:free", "is:open", "is:enrolled", "is:favourite", "is:favourite is:enrolled", "is:open level:int",
        "cat:docker is:free", "swift is:favourite", "e is:enrolled", "is:open cat:numismatics", "bogus:thing swift",
        // Words that start like the index's facet tokens (SQLite's `_…`, PostgreSQL's `#…`)
        // find words only.
        "cat", "is", "lvl", "_isfree", "_cat", "#free", "#cat",
    ]

    /// The id of course `number`: `gen-0000001`….
    public static func id(_ number: Int) -> String {
        "gen-\(String(repeating: "0", count: max(0, 7 - String(number).count)))\(number)"
    }

    /// `count` courses with ids `gen-0000001`…; the same `seed` gives the same catalog.
    public static func courses(count: Int, seed: UInt64 = 42) -> [Course] {
        var random = SeededRandomGenerator(seed: seed)
        return (1...max(1, count)).prefix(count).map { number in
            let subject = subjects[random.next(below: subjects.count)]
            let second = subjects[random.next(below: subjects.count)]
            let qualifier = qualifiers[random.next(below: qualifiers.count)]
            // Every 500th course repeats an earlier title exactly.
            let title = number % 500 == 0 ? "\(subjects[0]) \(qualifiers[0])" : "\(subject) \(qualifier) \(second) \(number)"
            // Every 13th course needs the one 7 before it; every 100 000th is in a category of
            // its own (10 courses in a million: the most selective filter there is).
            let prerequisite = number % 13 == 0 && number > 7 ? CourseID(Self.id(number - 7)) : nil
            return Course(
                id: CourseID(Self.id(number)),
                title: title,
                instructor: instructors[random.next(below: instructors.count)],
                category: number % 100_000 == 0 ? "Numismatics" : subject,
                level: [CourseLevel.beginner, .intermediate, .advanced][random.next(below: 3)],
                durationMinutes: 30 + random.next(below: 600),
                price: Price(minorUnits: random.next(below: 12_000), currency: "EUR"),
                capacity: random.next(below: 4) == 0 ? nil : 10 + random.next(below: 500),
                enrolledCount: random.next(below: 10),
                tags: [subject.lowercased(), second.lowercased()],
                prerequisiteID: prerequisite,
                isActive: random.next(below: 20) != 0,
                description: "\(title): a generated course for tests and benchmarks."
            )
        }
    }
}

extension SeededRandomGenerator {
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
