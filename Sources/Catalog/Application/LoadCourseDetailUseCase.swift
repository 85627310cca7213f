import SharedKernel

/// Loads one course, the title of its prerequisite, and how the learner relates to it.
struct LoadCourseDetailUseCase: Sendable {
    let courses: any CourseRepository
    let marks: CourseMarks

    func execute(id: CourseID) async throws(AppError) -> CourseDetail {
        let course = try await courses.course(id: id)
        var detail = CourseDetail(
            course: course,
            prerequisiteTitle: nil,
            isEnrolled: try await marks.isEnrolled(id),
            isFavourite: try await marks.isFavourite(id)
        )
        guard let prerequisiteID = course.prerequisiteID else { return detail }
        do {
            detail.prerequisiteTitle = try await courses.course(id: prerequisiteID).title
        } catch .courseNotFound {
            // A prerequisite removed from the catalog no longer blocks anything worth showing.
        }
        return detail
    }
}
