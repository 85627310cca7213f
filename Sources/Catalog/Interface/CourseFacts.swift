import Presentation
import SharedKernel

// MARK: - A course's facts, the same on its page and in the wide catalog's preview

extension CourseDetailScreen {
    /// What every view of a course states first: the page's facts and the wide catalog's preview.
    nonisolated static func facts(of course: Course) -> [(label: LocalizedText, value: LocalizedText)] {
        [
            ("Category", course.categoryName ?? .verbatim("—")),
            ("Level", course.level.displayName),
            ("Duration", DurationText.format(minutes: course.durationMinutes)),
            ("Price", "\(course.price)"),
            ("Seats left", seatsText(course)),
        ]
    }

    nonisolated static func seatsText(_ course: Course) -> LocalizedText {
        guard let capacity = course.capacity, let left = course.seatsLeft else { return "Unlimited" }
        return left == 0 ? "None — the course is full" : "\(left) of \(capacity)"
    }
}
