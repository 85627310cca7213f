import Foundation
import Platform
import SharedKernel
import Testing

/// A course's tags and its size in a course file: at most 20 tags of at most 40 characters,
/// and at most 64 KiB of JSON apart from its lessons' bodies (SPEC, "Bad input and faults").
@Suite("Course files: tags and a course's size")
struct CourseSizeJSONTests {
    /// One course whose `tags`, `description` and lessons are the test's.
    func file(tags: [String] = ["swift"], description: String = "D", lessons: String = "") -> Data {
        let tagList = tags.map { "\"\($0)\"" }.joined(separator: ",")
        return Data(
            """
            [{"id": "c", "title": "C", "instructor": "I", "level": "beginner", "duration_minutes": 10, "price": 0,
              "currency": "EUR", "tags": [\(tagList)], "description": "\(description)"\(lessons)}]
            """.utf8)
    }

    func refusal(_ data: Data) -> (field: String, reason: String)? {
        do {
            _ = try CourseJSON.decode(data)
            return nil
        } catch {
            guard case .invalidField(0, "c", let field, let reason) = error else { return ("(not a field)", error.description) }
            return (field, reason.english)
        }
    }

    @Test("20 tags of 40 characters are read, however many bytes a character takes")
    func mostTags() throws {
        let tags = (0..<20).map { String(repeating: $0 % 2 == 0 ? "é" : "日", count: 39) + "\($0 % 10)" }

        let entry = try #require(try CourseJSON.decode(file(tags: tags)).first)

        #expect(entry.course.tags == tags)
    }

    @Test("a 21st tag is refused, naming the entry and the field")
    func tooManyTags() {
        let problem = refusal(file(tags: (0...20).map { "t\($0)" }))

        #expect(problem?.field == "tags")
        #expect(problem?.reason == "must hold at most 20 tags")
    }

    @Test("a tag of 41 characters is refused, naming the tag")
    func longTag() {
        let problem = refusal(file(tags: ["ok", "fine", String(repeating: "a", count: 41)]))

        #expect(problem?.field == "tags[2]")
        #expect(problem?.reason == "must be at most 40 characters")
    }

    @Test("a course past 64 KiB of JSON is refused naming the field that takes most of it; lessons' bodies do not count")
    func size() {
        let longDescription = String(repeating: "a", count: 70_000)
        // Newlines are written `\n`: two bytes each on the wire.
        let escapedDescription = String(repeating: #"\n"#, count: 33_000)
        let bigBodies = (0..<3).map { #"{"title": "L\#($0)", "minutes": 5, "body": "\#(String(repeating: "b", count: 200_000))"}"# }
        let longTitles = (0..<200).map { _ in #"{"title": "\#(String(repeating: "t", count: 400))", "minutes": 5}"# }

        let long = refusal(file(description: longDescription))
        let escaped = refusal(file(description: escapedDescription))
        let titles = refusal(file(lessons: #", "lessons": [\#(longTitles.joined(separator: ","))]"#))
        let bodies = refusal(file(lessons: #", "lessons": [\#(bigBodies.joined(separator: ","))]"#))

        #expect(long?.field == "description")
        #expect(long?.reason.hasPrefix("makes the course 70") == true)
        #expect(long?.reason.hasSuffix("past the 65536 (64 KiB) a course may take") == true)
        #expect(escaped?.field == "description")
        #expect(titles?.field == "lessons")
        #expect(bodies == nil)
    }

    @Test("questions count toward the 64 KiB, as the rest of a course's JSON but its bodies")
    func questions() {
        let question = #"{"prompt": "\#(String(repeating: "p", count: 1_900))", "choices": ["a", "b"], "correct": [0]}"#
        let lesson = #"{"title": "L", "minutes": 5, "questions": [\#(Array(repeating: question, count: 20).joined(separator: ","))]}"#

        let two = refusal(file(lessons: #", "lessons": [\#(lesson), \#(lesson)]"#))
        let one = refusal(file(lessons: #", "lessons": [\#(lesson)]"#))

        #expect(two?.field == "lessons")
        #expect(one == nil)
    }

    @Test("the built-in catalog is within the limits")
    func builtIn() throws {
        let entries = try BuiltInCatalog.load()

        #expect(entries.allSatisfy { CourseLimits.problem(in: $0.syllabus) == nil })
    }
}
