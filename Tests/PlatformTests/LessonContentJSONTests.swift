import Foundation
import Platform
import SharedKernel
import Testing

/// A lesson's `body` and `questions` in a course file: read as they are, refused strictly.
@Suite("Course files: lesson bodies and questions")
struct LessonContentJSONTests {
    /// SPEC's example with one lesson whose extra fields are `lesson`.
    func file(lesson: String) -> Data {
        Data(
            """
            [{"id": "c", "title": "C", "instructor": "I", "level": "beginner", "duration_minutes": 10, "price": 0,
              "currency": "EUR", "description": "D", "lessons": [{"title": "One", "minutes": 10\(lesson)}]}]
            """.utf8)
    }

    @Test("a body and its questions are read; a lesson without them has none")
    func reads() throws {
        let entries = try CourseJSON.decode(
            file(
                lesson:
                    ###", "body": "## Hi\n\nText", "questions": [{"prompt": "P?", "choices": ["a", "b"], "correct": [1], "explanation": "E"}]"###
            ))
        let lesson = try #require(entries.first?.lessons?.first)
        #expect(
            lesson.content
                == LessonContent(
                    body: "## Hi\n\nText", questions: [Question(prompt: "P?", choices: ["a", "b"], correct: [1], explanation: "E")]))
        #expect(lesson.questionCount == 1)
        #expect(try CourseJSON.decode(file(lesson: "")).first?.lessons?.first?.content == nil)
    }

    @Test(
        "a bad question or body names the lesson, the question and the field",
        arguments: [
            (#", "questions": [{"prompt": "P", "choices": ["a"], "correct": [0]}]"#, "lessons[0].questions[0].choices"),
            (
                #", "questions": [{"prompt": "P", "choices": ["a", "b", "c", "d", "e", "f", "g"], "correct": [0]}]"#,
                "lessons[0].questions[0].choices"
            ),
            (#", "questions": [{"prompt": "P", "choices": ["a", "b"], "correct": [2]}]"#, "lessons[0].questions[0].correct"),
            (#", "questions": [{"prompt": "P", "choices": ["a", "b"], "correct": []}]"#, "lessons[0].questions[0].correct"),
            (#", "questions": [{"prompt": "P", "choices": ["a", "b"], "correct": [0, 0]}]"#, "lessons[0].questions[0].correct"),
            (#", "questions": [{"prompt": "\u001B[2J", "choices": ["a", "b"], "correct": [0]}]"#, "lessons[0].questions[0].prompt"),
            (#", "questions": [{"prompt": "P", "choices": ["a", ""], "correct": [0]}]"#, "lessons[0].questions[0].choices[1]"),
            (#", "questions": {"prompt": "P"}"#, "lessons[0].questions"),
            (#", "body": 42"#, "lessons[0].body"),
        ])
    func refuses(_ lesson: String, _ field: String) {
        #expect {
            try CourseJSON.decode(file(lesson: lesson))
        } throws: { error in
            guard case .invalidField(0, "c", let named, _) = error as? CourseFileError else { return false }
            return named == field
        }
    }

    @Test("an unknown key in a question is refused, so a typo loses nothing")
    func unknownKey() {
        #expect(throws: CourseFileError.unknownField(index: 0, id: "c", field: "lessons[0].questions[0].answer")) {
            try CourseJSON.decode(file(lesson: #", "questions": [{"prompt": "P", "choices": ["a", "b"], "correct": [0], "answer": 1}]"#))
        }
    }

    @Test("a body past 256 KiB is refused; one of exactly 256 KiB is read")
    func bodySize() throws {
        let most = String(repeating: "a", count: 262_144)
        #expect(try CourseJSON.decode(file(lesson: #", "body": "\#(most)""#)).first?.lessons?.first?.content?.body?.utf8.count == 262_144)
        #expect {
            try CourseJSON.decode(file(lesson: #", "body": "\#(most)b""#))
        } throws: { error in
            guard case .invalidField(0, "c", "lessons[0].body", _) = error as? CourseFileError else { return false }
            return true
        }
    }

    @Test(
        "NUL in a body, a prompt, a choice or an explanation is refused, naming the field (PostgreSQL could not keep it)",
        arguments: [
            (#", "body": "a\u0000b""#, "lessons[0].body"),
            (#", "questions": [{"prompt": "P\u0000", "choices": ["a", "b"], "correct": [0]}]"#, "lessons[0].questions[0].prompt"),
            (#", "questions": [{"prompt": "P", "choices": ["a", "b\u0000"], "correct": [0]}]"#, "lessons[0].questions[0].choices[1]"),
            (
                #", "questions": [{"prompt": "P", "choices": ["a", "b"], "correct": [0], "explanation": "\u0000"}]"#,
                "lessons[0].questions[0].explanation"
            ),
        ])
    func nul(lesson: String, field: String) {
        #expect {
            try CourseJSON.decode(file(lesson: lesson))
        } throws: { error in
            guard case .invalidField(0, "c", let named, let reason) = error as? CourseFileError else { return false }
            return named == field && reason.english.contains("NUL")
        }
    }

    @Test("the built-in catalog: eight courses, one in each category, have lessons to read and questions")
    func builtIn() throws {
        let entries = try BuiltInCatalog.load()
        let taught = entries.filter { entry in (entry.lessons ?? []).allSatisfy { $0.content?.body != nil && $0.questionCount > 0 } }
        #expect(Set(taught.compactMap(\.course.category)).count == 8)
        #expect(taught.allSatisfy { ($0.lessons?.count ?? 0) >= 5 })
        #expect(entries.count == 64)
    }
}
