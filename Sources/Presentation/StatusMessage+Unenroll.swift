import SharedKernel

extension StatusMessage {
    /// The question before leaving a course, which says that nothing is lost (SPEC, Learning
    /// progress): `Unenroll from <title>? Your progress (3 of 6 lessons) is kept. (y/n)`, or
    /// `? 3 of 6 lessons kept. (y/n)` on a narrow line; with no lesson done, `Unenroll from
    /// <title>? (y/n)`.
    public static func unenrollQuestion(title: String, lessonsDone: Int, of lessonCount: Int) -> StatusMessage {
        let done = min(max(0, lessonsDone), max(0, lessonCount))
        guard done > 0 else { return .question("Unenroll from ", title, "? (y/n)") }
        let lessons: LocalizedText = "\(done) of \(plural: lessonCount) lessons"
        // The lessons done decide the verb where a language agrees it with them (`Se conserva 1
        // de 6 lecciones`): their count rides along, not shown.
        let kept = LocalizedText(key: "? %@ kept. (y/n)", arguments: [.localized(lessons), .pluralCount(done)])
        // Where not even that leaves room for a little of the title, the bare question.
        return .question("Unenroll from ", title, "? Your progress (\(lessons)) is kept. (y/n)", shorter: [kept], bare: "? (y/n)")
    }

    /// The question before joining a paid course (a free one is joined at once): `Enroll in
    /// <title> for 74.00 EUR? (y/n)`, the title cut where the line is short.
    public static func enrollQuestion(title: String, price: Price) -> StatusMessage {
        .question("Enroll in ", title, " for \(price)? (y/n)")
    }
}
