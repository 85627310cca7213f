/// One lesson of a course's syllabus.
public struct Lesson: Hashable, Sendable {
    public var title: String
    public var minutes: Int
    /// The questions at its end: what the course page's score counts.
    public var questionCount: Int
    /// Its body and questions where a course file gives them; `nil` in a syllabus read from a
    /// store, which serves them one lesson at a time (`LearningRepository.lessonContent`).
    public var content: LessonContent?

    public init(title: String, minutes: Int, questionCount: Int = 0, content: LessonContent? = nil) {
        self.title = title
        self.minutes = minutes
        self.questionCount = content?.questions.count ?? questionCount
        self.content = content
    }
}

/// A course with its lessons, in order: what the course page shows.
public struct Syllabus: Hashable, Sendable {
    public var course: Course
    public var lessons: [Lesson]

    public init(course: Course, lessons: [Lesson]) {
        self.course = course
        self.lessons = lessons
    }
    /// How long all the lessons take, in minutes: a negative lesson counts as none, and the
    /// sum holds at `Int.max` instead of trapping.
    public var totalMinutes: Int {
        Saturating.sum(lessons.lazy.map { max(0, $0.minutes) })
    }
}

extension Lesson {
    /// The syllabus of a course that has no lessons of its own: one lesson named after it, as
    /// long as the course. Every store and the import say so through this.
    public static func only(of course: Course) -> Lesson {
        Lesson(title: course.title, minutes: course.durationMinutes)
    }
}
