import Foundation
import SharedKernel
import TestSupport
import Testing

@testable import Platform

@Suite("Course JSON")
struct CourseJSONTests {
    static let valid = CourseJSONExample.valid

    @Test("SPEC's example decodes, as an array or under \"courses\"")
    func decodesExample() throws {
        let fromArray = try CourseJSON.decode(Data("[\(Self.valid)]".utf8))
        let fromObject = try CourseJSON.decode(Data("{\"courses\": [\(Self.valid)]}".utf8))

        let course = try #require(fromArray.first).course
        #expect(fromArray == fromObject)
        #expect(course.price == Price(minorUnits: 3599, currency: "EUR"))
        #expect(course.seatsLeft == 28)
        #expect(course.level == .intermediate)
        #expect(course.tags == ["swift", "async"])
        #expect(fromArray.first?.lessons == nil)
    }

    @Test("optional fields take their defaults; a course without lessons is one lesson named after it")
    func defaults() throws {
        let minimal = """
            [{"id": "x", "title": "X", "instructor": "Y", "level": "beginner", "duration_minutes": 10,
              "price": 0, "currency": "eur", "description": "Z"}]
            """

        let entry = try #require(try CourseJSON.decode(Data(minimal.utf8)).first)

        #expect(entry.course.capacity == nil)
        #expect(entry.course.enrolledCount == 0)
        #expect(entry.course.tags == [])
        #expect(entry.course.isActive)
        #expect(entry.course.category == nil)
        #expect(entry.course.price.currency == "EUR")
        #expect(entry.syllabus.lessons == [Lesson(title: "X", minutes: 10)])
        #expect(entry.syllabus.course.lessonCount == 1)
    }

    @Test("lessons are read in order with their minutes")
    func lessons() throws {
        let withLessons = Self.valid.replacingOccurrences(
            of: #""active": true,"#,
            with: #""active": true, "lessons": [{"title": "Tasks", "minutes": 50}, {"title": "Actors", "minutes": 100}],"#
        )

        let entry = try #require(try CourseJSON.decode(Data("[\(withLessons)]".utf8)).first)

        #expect(entry.lessons == [Lesson(title: "Tasks", minutes: 50), Lesson(title: "Actors", minutes: 100)])
        #expect(entry.syllabus.course.lessonCount == 2)
    }

    @Test("broken JSON names the line and the column")
    func brokenJSON() {
        let text = "[\n  {\"id\": \"a\",\n   \"title\": ]\n]"

        #expect {
            try CourseJSON.decode(Data(text.utf8))
        } throws: { error in
            guard case .notJSON(let line, let column, _) = error as? CourseFileError else { return false }
            return line == 3 && column == 13
        }
    }

    @Test("JSON of the wrong shape, or a key next to \"courses\", is refused")
    func wrongShape() {
        #expect(throws: CourseFileError.wrongShape) { try CourseJSON.decode(Data(#"{"course": []}"#.utf8)) }
        #expect(throws: CourseFileError.wrongShape) { try CourseJSON.decode(Data("42".utf8)) }
        #expect(throws: CourseFileError.unknownTopLevelField("extra")) {
            try CourseJSON.decode(Data(#"{"courses": [], "extra": 1}"#.utf8))
        }
    }

    @Test("text from the file is quoted with its invisible characters escaped and cut, never raw")
    func quoting() {
        #expect(CourseFileError.quote("a\u{0}b\u{1B}]0;x\u{7}\u{202E}") == #""a\u{0}b\u{1B}]0;x\u{7}\u{202E}""#)
        #expect(CourseFileError.quote(String(repeating: "x", count: 100)) == "\"" + String(repeating: "x", count: 80) + "…\"")
    }

    @Test("a refused file is explained in the learner's language, the file's own words as they are")
    func spanish() {
        let data = Data(#"[{"id": "x", "title": "T", "instructor": "I", "level": "expert"}]"#.utf8)
        #expect {
            try CourseJSON.decode(data)
        } throws: { error in
            guard let problem = error as? CourseFileError else { return false }
            return Texts(.spanish)(problem.text) == #"entrada 0 (id "x"): campo "level": debe ser beginner, intermediate o advanced"#
                && problem.description == #"entry 0 (id "x"): field "level" must be one of beginner, intermediate, advanced"#
        }
    }
}
