import Foundation
import SharedKernel
@testable import Storage
import Testing

@Suite("Course JSON")
struct CourseJSONTests {
    static let valid = """
        {"id": "swift-concurrency", "title": "Swift Concurrency in Practice",
         "instructor": "María García", "category": "Swift", "level": "intermediate",
         "duration_minutes": 150, "price": 35.99, "currency": "EUR",
         "capacity": 40, "enrolled_count": 12, "tags": ["swift", "async"],
         "prerequisite_id": null, "active": true,
         "description": "Structured concurrency."}
        """

    @Test("SPEC's example decodes, as an array or under \"courses\"")
    func decodesExample() throws {
        let fromArray = try CourseJSON.decode(Data("[\(Self.valid)]".utf8))
        let fromObject = try CourseJSON.decode(Data("{\"courses\": [\(Self.valid)]}".utf8))

        let course = try #require(fromArray.first)
        #expect(fromArray == fromObject)
        #expect(course.price == Price(minorUnits: 3599, currency: "EUR"))
        #expect(course.seatsLeft == 28)
        #expect(course.level == .intermediate)
        #expect(course.tags == ["swift", "async"])
    }

    @Test("optional fields take their defaults")
    func defaults() throws {
        let minimal = """
            [{"id": "x", "title": "X", "instructor": "Y", "level": "beginner", "duration_minutes": 10,
              "price": 0, "currency": "eur", "description": "Z"}]
            """

        let course = try #require(try CourseJSON.decode(Data(minimal.utf8)).first)

        #expect(course.capacity == nil)
        #expect(course.enrolledCount == 0)
        #expect(course.tags == [])
        #expect(course.isActive)
        #expect(course.category == nil)
        #expect(course.price.currency == "EUR")
    }

    @Test("a bad entry is named with its index, id and field", arguments: [
        (#""level": "intermediate""#, #""level": "expert""#, #"entry 1 (id "swift-concurrency"): field "level" must be one of beginner, intermediate, advanced"#),
        (#""price": 35.99"#, #""price": -1"#, #"entry 1 (id "swift-concurrency"): field "price" must be 0 or more"#),
        (#""price": 35.99"#, #""price": "cheap""#, #"entry 1 (id "swift-concurrency"): field "price" must be a number"#),
        (#""duration_minutes": 150"#, #""duration_minutes": 0"#, #"entry 1 (id "swift-concurrency"): field "duration_minutes" must be greater than 0"#),
        (#""currency": "EUR""#, #""currency": "EURO""#, #"entry 1 (id "swift-concurrency"): field "currency" must be 3 letters"#),
        (#""title": "Swift Concurrency in Practice","#, "", #"entry 1 (id "swift-concurrency"): field "title" is missing"#),
        (#""prerequisite_id": null"#, #""prerequisite_id": "ghost""#, #"entry 1 (id "swift-concurrency"): field "prerequisite_id" names "ghost", which is not a known course"#),
        (#""id": "swift-concurrency""#, #""id": "first""#, #"entry 1 (id "first"): field "id" repeats an id used earlier in the file"#),
    ])
    func badEntry(original: String, replacement: String, message: String) {
        let first = #"{"id": "first", "title": "First", "instructor": "A", "level": "beginner", "duration_minutes": 1, "price": 0, "currency": "EUR", "description": "D"}"#
        let broken = Self.valid.replacingOccurrences(of: original, with: replacement)

        #expect {
            try CourseJSON.decode(Data("[\(first), \(broken)]".utf8))
        } throws: { error in
            (error as? CourseFileError)?.description == message
        }
    }

    @Test("text that is not JSON, or JSON of the wrong shape, is refused")
    func notJSON() {
        #expect(throws: CourseFileError.wrongShape) { try CourseJSON.decode(Data(#"{"course": []}"#.utf8)) }
        #expect { try CourseJSON.decode(Data("not json".utf8)) } throws: { error in
            if case .notJSON = error as? CourseFileError { return true }
            return false
        }
    }
}
