import EduGoAPI
import Foundation
import PropertyBased
import SharedKernel
import TestSupport
import Testing

@testable import Server

/// The catalog route writes pages by hand; the generated types are the contract it must meet.
@Suite("Server: catalog pages written by hand, read by the generated types")
struct CoursePageJSONTests {
    /// Quotes, backslashes, every kind of control character, slashes, text beyond ASCII.
    static let alphabet: [Unicode.Scalar] = [
        "a", "Z", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{1F}", "\n", "\r", "\t", "\u{7F}", "é", "ß", "日",
        "🙂", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{301}", "{", "}", "[", "]", ":", ",",
    ]

    static func text(_ choices: [Int]) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: choices.map { alphabet[$0 % alphabet.count] })
        return String(text)
    }

    static func course(_ number: Int, text: String, price: Int, optionals: Bool) -> Course {
        Course(
            id: CourseID("course-\(number)"),
            title: "Title \(text)",
            instructor: text,
            category: optionals ? text : nil,
            level: CourseLevel.allCases[number % CourseLevel.allCases.count],
            durationMinutes: number + 1,
            price: Price(minorUnits: price, currency: "EUR"),
            capacity: optionals ? number + 10 : nil,
            enrolledCount: number % 7,
            tags: optionals ? [text, "swift", ""] : [],
            prerequisiteID: optionals ? CourseID("before-\(number)") : nil,
            isActive: number % 2 == 0,
            description: "About \(text)",
            lessonCount: number % 5 + 1
        )
    }

    /// What the writer wrote, read by the generated types, is what they would have encoded.
    static func expectSame(_ answer: CatalogPageAnswer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let written = Data(CoursePageJSON.write(answer))
        let read = try JSONDecoder().decode(Components.Schemas.CoursePage.self, from: written)
        #expect(read == Components.Schemas.CoursePage(answer), sourceLocation: sourceLocation)
        // Valid JSON for any reader, not only Foundation's decoder of these types.
        #expect(try JSONSerialization.jsonObject(with: written) is [String: Any], sourceLocation: sourceLocation)
    }

    @Test("every field, each optional present and absent, prices of every shape, both kinds of count")
    func fields() throws {
        let prices = [0, 1, 5, 10, 50, 99, 100, 1800, 1850, 1873, 1_000_000_00]
        let rows = prices.enumerated().map { index, price in
            CatalogRow(
                key: CatalogKey(Int64(index) * 65_536),
                course: Self.course(index, text: "Café \"Ω\" \\ /", price: price, optionals: index % 2 == 0),
                added: index % 3 == 0 ? nil : Int64(index) * 1_000_003)
        }
        try Self.expectSame(
            CatalogPageAnswer(rows: rows, next: CatalogKey(999_999_999_999_999_999), previous: CatalogKey(1), total: .exactly(11)))
        try Self.expectSame(CatalogPageAnswer(rows: rows, next: nil, previous: nil, total: .atLeast(10_000)))
        try Self.expectSame(CatalogPageAnswer(rows: [], next: nil, previous: nil, total: .exactly(0)))
    }

    @Test("prices are the numbers the generated encoding writes")
    func prices() throws {
        for minorUnits in [0, 7, 30, 105, 1873, 2_000, 123_456_789] {
            let answer = CatalogPageAnswer(
                rows: [CatalogRow(key: CatalogKey(1), course: Self.course(1, text: "x", price: minorUnits, optionals: false))],
                total: .exactly(1))
            let object = try JSONSerialization.jsonObject(with: Data(CoursePageJSON.write(answer))) as? [String: Any]
            let price = ((object?["courses"] as? [[String: Any]])?.first?["price"] as? NSNumber)?.doubleValue
            #expect(price == Double(minorUnits) / 100)
        }
    }

    @Test("any text in any field")
    func anyText() async {
        await propertyCheck(
            count: 300,
            input: Gen.int(in: 0...(Self.alphabet.count - 1)).array(of: 0...40), Gen.int(in: 0...1_000_000)
        ) { choices, price in
            let answer = CatalogPageAnswer(
                rows: [
                    CatalogRow(
                        key: CatalogKey(Int64(price)),
                        course: Self.course(price, text: Self.text(choices), price: price, optionals: price % 2 == 0))
                ],
                next: nil, previous: CatalogKey(Int64(price)), total: .exactly(price)
            )
            #expect(throws: Never.self) { try Self.expectSame(answer) }
        }
    }

    // MARK: - Pages under the terminal's cap

    /// Five courses of about 1 KB each, keys 10 to 50.
    static let largeRows = (1...5).map { number in
        CatalogRow(
            key: CatalogKey(Int64(number * 10)),
            course: .fixture(id: CourseID("large-\(number)"), description: String(repeating: "d", count: 1_000)))
    }

    @Test("a page whose courses pass the budget stops adding them where they would, and gives next to page on")
    func cutForward() throws {
        let answer = CatalogPageAnswer(rows: Self.largeRows, next: CatalogKey(50), previous: CatalogKey(10), total: .exactly(9))
        let budget = 2_600

        let written = CoursePageJSON.write(answer, budget: budget)
        let page = try JSONDecoder().decode(Components.Schemas.CoursePage.self, from: Data(written))

        #expect(page.courses.map(\.value1.id) == ["large-1", "large-2"])
        #expect(page.next == "20" && page.previous == "10")
        #expect(page.total == 9)
        #expect(written.count < budget + 200)
    }

    @Test("a page read backwards keeps the courses nearest its key, and gives previous to page on")
    func cutBackward() throws {
        let answer = CatalogPageAnswer(
            rows: Self.largeRows, next: CatalogKey(50), previous: CatalogKey(10), total: .exactly(9), readsBackward: true)

        let page = try JSONDecoder().decode(Components.Schemas.CoursePage.self, from: Data(CoursePageJSON.write(answer, budget: 2_600)))

        #expect(page.courses.map(\.value1.id) == ["large-4", "large-5"])
        #expect(page.previous == "40" && page.next == "50")
    }

    @Test("a page within its budget is written whole; the default budget is well under the terminal's 4 MiB")
    func whole() throws {
        let answer = CatalogPageAnswer(rows: Self.largeRows, next: nil, previous: nil, total: .exactly(5))

        let page = try JSONDecoder().decode(Components.Schemas.CoursePage.self, from: Data(CoursePageJSON.write(answer, budget: 10_000)))

        #expect(page.courses.count == 5 && page.next == nil)
        #expect(CourseLimits.pageBytes + 64 * 1024 < CourseLimits.answerBytes)
    }

    @Test("a course that alone passes the budget is left out and paged past; the courses around it stay")
    func oneTooLarge() throws {
        var rows = Self.largeRows
        rows[2] = CatalogRow(key: CatalogKey(30), course: .fixture(id: "huge", description: String(repeating: "h", count: 10_000)))
        let answer = CatalogPageAnswer(rows: Array(rows.prefix(3)), next: nil, previous: nil, total: .exactly(3))

        let page = try JSONDecoder().decode(Components.Schemas.CoursePage.self, from: Data(CoursePageJSON.write(answer, budget: 5_000)))

        #expect(page.courses.map(\.value1.id) == ["large-1", "large-2"])
        #expect(page.next == nil)
    }

    @Test("100 of the largest courses a course may be: every page under the budget, none left behind")
    func largestCourses() throws {
        let largest = CourseLimits.jsonBytes - CourseLimits.jsonBytes(of: .fixture(description: ""))
        let rows = (1...100).map { number in
            CatalogRow(
                key: CatalogKey(Int64(number)),
                course: .fixture(id: CourseID("c\(number)"), description: String(repeating: "d", count: largest)))
        }
        #expect(rows.allSatisfy { CourseLimits.problem(in: $0.course) == nil })
        var seen: [String] = []
        var position = 0
        while position < rows.count {
            let more = position + 100 < rows.count
            let answer = CatalogPageAnswer(
                rows: Array(rows[position...].prefix(100)), next: more ? rows[position + 99].key : nil, previous: nil, total: .exactly(100))

            let written = CoursePageJSON.write(answer)
            let page = try JSONDecoder().decode(Components.Schemas.CoursePage.self, from: Data(written))

            #expect(written.count <= CourseLimits.pageBytes + 1_024)
            seen += page.courses.map(\.value1.id)
            guard let next = page.next, let after = rows.firstIndex(where: { $0.key.pageKey == next }) else { break }
            position = after + 1
        }

        #expect(seen == rows.map(\.course.id.rawValue))
    }
}
