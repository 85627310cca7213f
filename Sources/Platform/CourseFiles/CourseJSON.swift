import Foundation
import SharedKernel

/// Reads SPEC's course JSON (a top-level array, or `{"courses": [...]}`) strictly: every
/// field in range, no unknown field, with a precise error for the first problem.
public enum CourseJSON {
    /// Decodes and validates every entry. Prerequisites are checked against the file itself
    /// plus `knownIDs` (the courses already stored).
    public static func decode(_ data: Data, knownIDs: Set<CourseID> = []) throws(CourseFileError) -> [CourseEntry] {
        let file = try parse(data)
        try file.checkPrerequisites(stored: knownIDs)
        try file.checkCycles(storedPrerequisite: { _ in nil })
        return file.entries
    }

    /// Decodes and validates every entry on its own and against the rest of the file; what
    /// is left to check against the store is `CourseFile.outsidePrerequisites` and cycles.
    public static func parse(_ data: Data) throws(CourseFileError) -> CourseFile {
        let decoded: Result<[Entry], any Error>
        if let list = try? JSONDecoder().decode([Entry].self, from: data) {
            decoded = .success(list)
        } else {
            decoded = Result { try JSONDecoder().decode(Wrapper.self, from: data).courses }
            // Only a file both decoders refused is read by Foundation's reader, which says where
            // broken JSON breaks: it read every file first, 7.6 % of importing a good one.
            if case .failure = decoded {
                do {
                    _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
                } catch {
                    throw brokenJSON(error, in: data)
                }
            }
        }
        // The decoders keep one of a key given twice; a file must not say two things at once.
        let duplicate = DuplicateKeys.first(in: data)
        if let duplicate, duplicate.entry == nil { throw .duplicateKey(index: nil, id: nil, field: duplicate.field) }
        let entries: [Entry]
        do {
            entries = try decoded.get()
        } catch let problem as CourseFileError {
            throw problem
        } catch {
            throw .wrongShape
        }

        var courses: [CourseEntry] = []
        var seen: Set<CourseID> = []
        for (index, entry) in entries.enumerated() {
            if let duplicate, duplicate.entry == index {
                throw .duplicateKey(index: index, id: duplicate.id, field: duplicate.field)
            }
            switch entry.result {
            case .failure(let problem):
                throw problem.unknown
                    ? .unknownField(index: index, id: entry.id, field: problem.field)
                    : .invalidField(index: index, id: entry.id, field: problem.field, reason: problem.reason)
            case .success(let course):
                guard seen.insert(course.course.id).inserted else { throw .duplicateID(index: index, id: course.course.id.rawValue) }
                courses.append(course)
            }
        }
        return CourseFile(entries: courses, ids: seen)
    }

    /// `line L, column C` from the position Foundation reports ("around character N", a
    /// byte offset), or the end of the file for an unexpected end.
    private static func brokenJSON(_ error: any Error, in data: Data) -> CourseFileError {
        let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "the data is not in JSON format"
        var offset = data.count
        var reason = detail
        if let range = detail.range(of: " around character ") {
            let number = detail[range.upperBound...].prefix { $0.isNumber }
            offset = min(data.count, Int(number) ?? data.count)
            reason = String(detail[..<range.lowerBound])
        }
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1  // count characters, not the continuation bytes of UTF-8
            }
        }
        return .notJSON(line: line, column: column, reason: reason.trimmingCharacters(in: CharacterSet(charactersIn: ". ")))
    }

    // MARK: - Decoding

    private struct Wrapper: Decodable {
        let courses: [Entry]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            guard container.contains(AnyKey("courses")) else { throw CourseFileError.wrongShape }
            if let unknown = container.allKeys.first(where: { $0.stringValue != "courses" }) {
                throw CourseFileError.unknownTopLevelField(unknown.stringValue)
            }
            courses = try container.decode([Entry].self, forKey: AnyKey("courses"))
        }
    }

    struct FieldProblem: Error {
        let field: String
        let reason: LocalizedText
        var unknown = false
    }

    /// One array element: a course, or the first problem found in it. Never throws, so one
    /// bad entry does not hide which entry it was.
    private struct Entry: Decodable {
        let id: String?
        let result: Result<CourseEntry, FieldProblem>

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: AnyKey.self) else {
                id = nil
                result = .failure(FieldProblem(field: "(entry)", reason: "must be an object"))
                return
            }
            let reader = FieldReader(container: container, prefix: "")
            id = try? container.decodeIfPresent(String.self, forKey: AnyKey("id"))
            result = Result { () throws(FieldProblem) -> CourseEntry in try reader.entry() }
        }
    }

    static let courseFields: Set<String> = [
        "id", "title", "instructor", "category", "level", "duration_minutes", "price", "currency", "capacity",
        "enrolled_count", "tags", "prerequisite_id", "active", "description", "lessons",
    ]
    static let lessonFields: Set<String> = ["title", "minutes", "body", "questions"]
    static let questionFields: Set<String> = ["prompt", "choices", "correct", "explanation"]

    private struct FieldReader {
        let container: KeyedDecodingContainer<AnyKey>
        /// `lessons[2].` inside a lesson, so problems name the whole path.
        let prefix: String

        func checkKnown(_ known: Set<String>) throws(FieldProblem) {
            // The decoder does not keep the file's order: the first by name, so runs agree.
            if let unknown = container.allKeys.map(\.stringValue).filter({ !known.contains($0) }).sorted().first {
                throw FieldProblem(field: prefix + unknown, reason: "", unknown: true)
            }
        }

        func entry() throws(FieldProblem) -> CourseEntry {
            try checkKnown(CourseJSON.courseFields)
            let id = try required(String.self, "id", "a string")
            guard CourseLimits.isValidID(id) else {
                throw FieldProblem(field: "id", reason: "must be 1 to 64 of the characters A-Z a-z 0-9 . _ -")
            }
            let levelName = try required(String.self, "level", "a string")
            guard let level = CourseLevel(rawValue: levelName) else {
                throw FieldProblem(field: "level", reason: "must be one of beginner, intermediate, advanced")
            }
            let duration = try requiredWholeNumber("duration_minutes", in: CourseLimits.minutes)
            let price = try required(Double.self, "price", "a number")
            guard CourseLimits.price.contains(price) else {
                throw FieldProblem(field: "price", reason: "must be between 0 and 1000000")
            }
            let currency = try required(String.self, "currency", "a string")
            guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw FieldProblem(field: "currency", reason: "must be 3 letters")
            }
            let capacity = try wholeNumber("capacity", in: CourseLimits.seats, optional: true, nullable: true)
            let enrolled = try wholeNumber("enrolled_count", in: 0...CourseLimits.seats.upperBound, optional: true) ?? 0
            if let capacity, enrolled > capacity {
                throw FieldProblem(field: "enrolled_count", reason: "must not be above capacity (\(capacity))")
            }
            let prerequisite = try optional(String.self, "prerequisite_id", "a string or null")
            if let prerequisite {
                guard CourseLimits.isValidID(prerequisite) else {
                    throw FieldProblem(field: "prerequisite_id", reason: "must be the id of a course")
                }
                guard prerequisite != id else { throw FieldProblem(field: "prerequisite_id", reason: "names the course itself") }
            }
            let tags = try optional([String].self, "tags", "an array of strings") ?? []
            if let problem = CourseLimits.tagProblem(in: tags) { throw FieldProblem(field: problem.field, reason: problem.reason) }
            let course = Course(
                id: CourseID(id),
                title: try text("title"),
                instructor: try text("instructor"),
                category: try optional(String.self, "category", "a string"),
                level: level,
                durationMinutes: duration,
                price: Price(minorUnits: Int((price * 100).rounded()), currency: currency.uppercased()),
                capacity: capacity,
                enrolledCount: enrolled,
                tags: tags,
                prerequisiteID: prerequisite.map { CourseID($0) },
                isActive: try optional(Bool.self, "active", "true or false") ?? true,
                description: try text("description")
            )
            let entry = CourseEntry(course: course, lessons: try lessons())
            // Measured as the API serves it (a course without lessons has one named after it).
            if let problem = CourseLimits.sizeProblem(in: entry.syllabus) {
                throw FieldProblem(field: problem.field, reason: problem.reason)
            }
            return entry
        }

        private func lessons() throws(FieldProblem) -> [Lesson]? {
            guard container.contains(AnyKey("lessons")) else { return nil }
            let list: [LessonEntry]
            do {
                list = try container.decode([LessonEntry].self, forKey: AnyKey("lessons"))
            } catch {
                throw FieldProblem(field: "lessons", reason: "must be an array of lessons ({\"title\": …, \"minutes\": …})")
            }
            guard CourseLimits.lessons.contains(list.count) else {
                throw FieldProblem(field: "lessons", reason: "must hold 1 to 200 lessons")
            }
            var lessons: [Lesson] = []
            for (index, entry) in list.enumerated() {
                switch entry.result(prefix: "lessons[\(index)].") {
                case .success(let lesson): lessons.append(lesson)
                case .failure(let problem): throw problem
                }
            }
            return lessons
        }

        /// A required text that still says something once control characters, format
        /// characters and whole escape sequences are removed (`"\u{1B}[2J"` says nothing).
        func text(_ key: String) throws(FieldProblem) -> String {
            let text = try required(String.self, key, "a string")
            guard CourseLimits.saysSomething(text) else {
                throw FieldProblem(field: prefix + key, reason: "must not be empty")
            }
            return text
        }

        /// A whole number within `range`; a fraction, or a number past any integer, says so.
        func requiredWholeNumber(_ key: String, in range: ClosedRange<Int>) throws(FieldProblem) -> Int {
            guard let value = try wholeNumber(key, in: range) else { throw FieldProblem(field: prefix + key, reason: "is missing") }
            return value
        }

        func wholeNumber(_ key: String, in range: ClosedRange<Int>, optional isOptional: Bool = false, nullable: Bool = false)
            throws(FieldProblem) -> Int?
        {
            let reason: LocalizedText =
                nullable
                ? "must be a whole number from \(range.lowerBound) to \(range.upperBound), or null"
                : "must be a whole number from \(range.lowerBound) to \(range.upperBound)"
            let value: Int?
            do {
                value = try container.decodeIfPresent(Int.self, forKey: AnyKey(key))
            } catch {
                throw FieldProblem(field: prefix + key, reason: reason)
            }
            guard let value else {
                if isOptional { return nil }
                throw FieldProblem(field: prefix + key, reason: "is missing")
            }
            guard range.contains(value) else { throw FieldProblem(field: prefix + key, reason: reason) }
            return value
        }

        func required<T: Decodable>(_ type: T.Type, _ key: String, _ kind: LocalizedText) throws(FieldProblem) -> T {
            guard let value = try optional(type, key, kind) else {
                throw FieldProblem(field: prefix + key, reason: "is missing")
            }
            return value
        }

        func optional<T: Decodable>(_ type: T.Type, _ key: String, _ kind: LocalizedText) throws(FieldProblem) -> T? {
            do {
                return try container.decodeIfPresent(type, forKey: AnyKey(key))
            } catch {
                throw FieldProblem(field: prefix + key, reason: "must be \(kind)")
            }
        }
    }

    /// One lesson of `lessons`, or its first problem.
    private struct LessonEntry: Decodable {
        let container: KeyedDecodingContainer<AnyKey>?

        init(from decoder: any Decoder) throws {
            container = try? decoder.container(keyedBy: AnyKey.self)
        }

        static func questions(in container: KeyedDecodingContainer<AnyKey>, prefix: String) throws(FieldProblem) -> [Question] {
            guard container.contains(AnyKey("questions")) else { return [] }
            let list: [QuestionEntry]
            do {
                list = try container.decode([QuestionEntry].self, forKey: AnyKey("questions"))
            } catch {
                throw FieldProblem(field: prefix + "questions", reason: "must be an array of questions ({\"prompt\": …, \"choices\": …})")
            }
            guard ContentLimits.questions.contains(list.count) else {
                throw FieldProblem(field: prefix + "questions", reason: "must hold at most \(ContentLimits.questions.upperBound) questions")
            }
            var questions: [Question] = []
            for (index, entry) in list.enumerated() {
                questions.append(try entry.question(prefix: prefix + "questions[\(index)]."))
            }
            return questions
        }

        func result(prefix: String) -> Result<Lesson, FieldProblem> {
            guard let container else {
                return .failure(FieldProblem(field: String(prefix.dropLast()), reason: "must be an object"))
            }
            let reader = FieldReader(container: container, prefix: prefix)
            return Result { () throws(FieldProblem) -> Lesson in
                try reader.checkKnown(CourseJSON.lessonFields)
                let title = try reader.text("title")
                let minutes = try reader.requiredWholeNumber("minutes", in: CourseLimits.minutes)
                let body = try reader.optional(String.self, "body", "a string")
                if let problem = body.flatMap(ContentLimits.problem(inBody:)) {
                    throw FieldProblem(field: prefix + "body", reason: problem)
                }
                let questions = try Self.questions(in: container, prefix: prefix)
                let content = body == nil && questions.isEmpty ? nil : LessonContent(body: body, questions: questions)
                return Lesson(title: title, minutes: minutes, content: content)
            }
        }
    }

    /// One question of a lesson's `questions`, or its first problem.
    private struct QuestionEntry: Decodable {
        let container: KeyedDecodingContainer<AnyKey>?

        init(from decoder: any Decoder) throws {
            container = try? decoder.container(keyedBy: AnyKey.self)
        }

        func question(prefix: String) throws(FieldProblem) -> Question {
            guard let container else { throw FieldProblem(field: String(prefix.dropLast()), reason: "must be an object") }
            let reader = FieldReader(container: container, prefix: prefix)
            try reader.checkKnown(CourseJSON.questionFields)
            let correct = try reader.required([Int].self, "correct", "an array of choice indexes from 0")
            let question = Question(
                prompt: try reader.required(String.self, "prompt", "a string"),
                choices: try reader.required([String].self, "choices", "an array of strings"),
                correct: Set(correct),
                explanation: try reader.optional(String.self, "explanation", "a string") ?? "")
            if correct.count != question.correct.count {
                throw FieldProblem(field: prefix + "correct", reason: "names a choice twice")
            }
            if let problem = ContentLimits.problem(in: question) {
                throw FieldProblem(field: prefix + problem.field, reason: problem.reason)
            }
            return question
        }
    }

    /// Any key, so unknown ones can be found and named.
    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(_ name: String) {
            stringValue = name
        }

        init?(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }
}
