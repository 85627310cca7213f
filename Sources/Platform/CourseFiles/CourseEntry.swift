import SharedKernel

/// A course as a file gives it: the course, and its lessons when the file lists them.
public struct CourseEntry: Hashable, Sendable {
    public var course: Course
    /// `nil` when the file gives none: the course is then one lesson named after it.
    public var lessons: [Lesson]?

    public init(course: Course, lessons: [Lesson]? = nil) {
        self.course = course
        self.lessons = lessons
    }

    /// The course with its lessons, the default single lesson included.
    public var syllabus: Syllabus {
        var course = self.course
        let lessons = self.lessons ?? [.only(of: course)]
        course.lessonCount = lessons.count
        return Syllabus(course: course, lessons: lessons)
    }
}
