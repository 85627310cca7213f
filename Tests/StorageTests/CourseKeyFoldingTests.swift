import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

@Suite("Course keys folded once per text: the same keys as folding the whole")
struct CourseKeyFoldingTests {
    /// Texts whose folding changes their length, spelling or scalars, and some that begin with
    /// what could join the line before (a combining accent, a zero-width joiner, a variation
    /// selector) if a line break did not end a grapheme.
    static let awkward = [
        "Straße", "ﬁnance", "Ærøskøbing", "İstanbul", "ÇAĞRI", "Ｆｕｌｌ ｗｉｄｔｈ", "\u{301}accent first", "\u{200D}joiner",
        "\u{FE0F}selector", "e\u{301}", "👩‍💻 code", "日本語", "", " ", "\n", "Łódź", "ǅemal", "ﬀ", "Ŀl", "ǈ",
    ]

    static func makeSUT() -> CourseKeyFolding { CourseKeyFolding() }

    @Test("every key of a generated catalog is what SortKey and TextFolding make of the whole")
    func generated() {
        var sut = Self.makeSUT()
        for course in GeneratedCatalog.courses(count: 3_000) {
            #expect(sut.keys(of: course) == Self.expected(course))
        }
    }

    @Test("awkward texts as instructor, tags and category, twice over (the second time from the memo)")
    func awkwardTexts() {
        var sut = Self.makeSUT()
        for _ in 0..<2 {
            for (index, text) in Self.awkward.enumerated() {
                let other = Self.awkward[(index + 7) % Self.awkward.count]
                let course = Course(
                    id: CourseID("k-\(index)"), title: other, instructor: text, category: text, level: .beginner,
                    durationMinutes: 10, price: Price(minorUnits: 0, currency: "EUR"), capacity: nil, enrolledCount: 0,
                    tags: [text, other, text], prerequisiteID: nil, isActive: true, description: "")
                #expect(sut.keys(of: course) == Self.expected(course), "\(text.debugDescription)")
            }
        }
    }

    @Test("a bulk import's keys folded in parts, one per core, are each course's own, in the file's order", arguments: [2, 3])
    func inParts(cores: Int) {
        let entries = GeneratedCatalog.courses(count: 10_007).map { CourseEntry(course: $0) }

        let keys = CourseKeyFolding.keys(of: entries, cores: cores)

        #expect(keys.count == entries.count)
        #expect(keys == entries.map { Self.expected($0.course) })
    }

    private static func expected(_ course: Course) -> CourseKeys {
        CourseKeys(
            sortKey: SortKey.make(course.title),
            searchKey: SortKey.searchKey(title: course.title, instructor: course.instructor, tags: course.tags),
            categoryKey: TextFolding.key(course.category ?? ""))
    }
}
