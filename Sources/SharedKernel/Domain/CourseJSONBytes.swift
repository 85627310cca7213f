/// How many bytes a course takes as compact JSON (SPEC's course JSON, the API's `Course`),
/// apart from its lessons' bodies: what `CourseLimits.jsonBytes` bounds. Texts count as they
/// are written, escapes included; numbers, booleans and the keys count at their widest, so
/// the size depends on the texts alone and is the same wherever it is measured (an import,
/// a store reading a row back, the terminal reading an answer).
enum CourseJSONBytes {
    /// The keys of every field, their punctuation, and the numbers at their widest
    /// (`"price":1000000.00`, `"capacity":10000000`, `"level":"intermediate"`, …).
    static let courseFrame = 256
    /// `{"title":,"minutes":100000,"question_count":20}` and a comma.
    static let lessonFrame = 48
    /// `{"prompt":,"choices":[],"correct":[0,1,2,3,4,5],"explanation":}` and a comma.
    static let questionFrame = 72

    static func of(_ course: Course) -> Int {
        var bytes = courseFrame + text(course.id.rawValue) + text(course.title) + text(course.instructor)
        bytes += text(course.category ?? "") + text(course.price.currency) + text(course.prerequisiteID?.rawValue ?? "")
        bytes += text(course.description)
        for tag in course.tags { bytes += text(tag) + 1 }
        return bytes
    }

    /// The course and its syllabus: each lesson's title and minutes, and its questions when
    /// it holds them (a course file's lessons do; a store's syllabus serves them apart).
    static func of(_ syllabus: Syllabus) -> Int {
        var bytes = of(syllabus.course)
        for lesson in syllabus.lessons {
            bytes += lessonFrame + text(lesson.title)
            for question in lesson.content?.questions ?? [] {
                bytes += questionFrame + text(question.prompt) + text(question.explanation)
                for choice in question.choices { bytes += text(choice) + 1 }
            }
        }
        return bytes
    }

    /// At least as many as `of(course)`, from the texts' lengths alone (a text's escapes make
    /// it at most 6 times longer): reading a row back measures exactly only a course that
    /// could be near the limit, not every one.
    static func bound(_ course: Course) -> Int {
        var bytes = course.id.rawValue.utf8.count + course.title.utf8.count + course.instructor.utf8.count
        bytes += (course.category?.utf8.count ?? 0) + course.price.currency.utf8.count + (course.prerequisiteID?.rawValue.utf8.count ?? 0)
        bytes += course.description.utf8.count
        for tag in course.tags { bytes += tag.utf8.count + 1 }
        return courseFrame + 6 * bytes + 2 * (7 + course.tags.count)
    }

    /// A JSON string: its quotes, and each byte as it is written (`\"`, `\\`, `\n`, `\r`,
    /// `\t` take two; any other control character `\u00XX`, six).
    static func text(_ text: String) -> Int {
        var bytes = 2
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): bytes += 2
            case 0..<0x20: bytes += 6
            default: bytes += 1
            }
        }
        return bytes
    }
}
