import Foundation
import SharedKernel
import TestSupport
import Testing

@testable import Platform

/// A key given twice in one object of a course file is refused: Foundation's decoders keep one
/// of the two without a word.
@Suite("Course files: a key given twice")
struct DuplicateKeyJSONTests {
    static let lesson = #"{"title": "One", "minutes": 10}"#
    static let question = #"{"prompt": "P?", "choices": ["a", "b"], "correct": [0]}"#

    /// SPEC's example as entry 1 of a file, entry 0 a plain course; `entry` edits the second.
    static func file(_ edit: (String) -> String) -> Data {
        let first =
            #"{"id": "plain", "title": "T", "instructor": "I", "level": "beginner", "duration_minutes": 10, "price": 0, "currency": "EUR", "description": "D"}"#
        return Data("[\(first),\n\(edit(CourseJSONExample.valid))]".utf8)
    }

    @Test(
        "a key given twice names the entry (index and id) and the field, at any depth",
        arguments: [
            (#""id": "swift-concurrency","#, #""id": "swift-concurrency", "id": "other","#, "id"),
            (#""active": true,"#, #""active": true, "active": false,"#, "active"),
            (
                #""active": true,"#, #""active": true, "lessons": [\#(lesson), {"title": "Two", "minutes": 5, "title": "Zwei"}],"#,
                "lessons[1].title"
            ),
            (
                #""active": true,"#,
                #""active": true, "lessons": [{"title": "One", "minutes": 10, "questions": [\#(question), {"prompt": "Q", "choices": ["a", "b"], "correct": [0], "correct": [1]}]}],"#,
                "lessons[0].questions[1].correct"
            ),
            // An escape that spells the same key is the same key.
            (#""active": true,"#, #""active": true, "\u0061ctive": false,"#, "active"),
        ])
    func refused(_ original: String, _ replacement: String, _ field: String) {
        let data = Self.file { $0.replacingOccurrences(of: original, with: replacement) }

        #expect(throws: CourseFileError.duplicateKey(index: 1, id: "swift-concurrency", field: field)) { try CourseJSON.decode(data) }
    }

    @Test("the entry's first id names it, whichever key is given twice, even one before the id")
    func namesFirstID() {
        let data = Data(#"[{"title": "A", "title": "B", "id": "first", "id": "second"}]"#.utf8)

        #expect(throws: CourseFileError.duplicateKey(index: 0, id: "first", field: "title")) { try CourseJSON.decode(data) }
    }

    @Test("the same key in two objects, or a key that is another's value, is no duplicate")
    func notDuplicates() throws {
        let data = Self.file {
            $0.replacingOccurrences(
                of: #""active": true,"#, with: #""active": true, "lessons": [\#(Self.lesson), {"title": "id", "minutes": 5}],"#)
        }

        #expect(try CourseJSON.decode(data).count == 2)
    }

    @Test("a key given twice in the top-level object is refused")
    func topLevel() {
        let data = Data(#"{"courses": [], "courses": [\#(CourseJSONExample.valid)]}"#.utf8)

        #expect(throws: CourseFileError.duplicateKey(index: nil, id: nil, field: "courses")) { try CourseJSON.decode(data) }
    }

    @Test("a key given twice in an entry under \"courses\" names that entry")
    func underCourses() {
        let data = Data(
            #"{"courses": [\#(CourseJSONExample.valid.replacingOccurrences(of: #""active": true"#, with: #""active": true, "tags": []"#))]}"#
                .utf8)

        #expect(throws: CourseFileError.duplicateKey(index: 0, id: "swift-concurrency", field: "tags")) { try CourseJSON.decode(data) }
    }

    @Test("the message names the entry and the key, in the learner's language")
    func message() {
        let problem = CourseFileError.duplicateKey(index: 2, id: "rust-intro", field: "lessons[0].title")

        #expect(problem.description == #"entry 2 (id "rust-intro"): field "lessons[0].title" is given twice"#)
        #expect(Texts(.spanish)(problem.text) == #"entrada 2 (id "rust-intro"): el campo "lessons[0].title" aparece dos veces"#)
    }

    @Test("broken JSON is still told by its line and column")
    func brokenJSON() {
        let data = Data("[{\"id\": \"a\", \"id\": \"b\",\n \"title\": ]".utf8)

        #expect {
            try CourseJSON.decode(data)
        } throws: { error in
            guard case .notJSON(let line, let column, _) = error as? CourseFileError else { return false }
            return line == 2 && column == 11
        }
    }

    @Test("objects nested far deeper than any course are scanned without recursion")
    func deep() {
        let depth = 100_000
        let data = Data(("[" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "]").utf8)

        #expect(DuplicateKeys.first(in: data) == nil)
    }

    @Test("an object with many keys is scanned in linear time; the duplicate at its end is found")
    func manyKeys() {
        let keys = (0..<200_000).map { #""k\#($0)": 0"# }.joined(separator: ",")
        let data = Data(#"[{\#(keys), "k17": 1}]"#.utf8)

        #expect(DuplicateKeys.first(in: data) == DuplicateKey(entry: 0, id: nil, field: "k17"))
    }
}
