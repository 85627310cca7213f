import EduGoAPI
import Foundation
import PropertyBased
import SharedKernel
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
                course: Self.course(index, text: "Café \"Ω\" \\ /", price: price, optionals: index % 2 == 0))
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
}
