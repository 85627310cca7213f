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

    /// The page's Status fact, in parts: enrolled or completed, a favourite, why `e` would be
    /// refused (by the rules `e` is answered by, so the page and its footer agree; a
    /// prerequisite no longer in the catalog blocks nothing), and a save under way.
    nonisolated static func status(marks: CourseMarks, refusal: EnrollmentRefusal?) -> [LocalizedText] {
        var status: [LocalizedText] = []
        if let enrollment = marks.enrollment {
            if enrollment.status == .completed, let date = enrollment.completedAt {
                status.append("✓ Completed \(day: date)")
            } else {
                status.append("✓ Enrolled")
            }
        } else if let date = marks.completedAt {
            // Left after completing it: history, which `e` brings back.
            status.append("Completed \(day: date) · not enrolled")
        }
        if marks.isFavourite { status.append("★ Favourite") }
        switch refusal {
        case .courseInactive: status.append("Not open for enrollment")
        case .courseFull: status.append("Full")
        case .prerequisiteNotCompleted: status.append("Locked until its prerequisite is completed")
        case .alreadyEnrolled, nil: break
        }
        if marks.isSavingEnrollment || marks.isSavingFavourite { status.append("(saving…)") }
        return status
    }
}
