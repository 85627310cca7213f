import SharedKernel

/// Loads one course, the title of its prerequisite, and whether the learner is enrolled.
struct LoadCourseDetailUseCase: Sendable {
    let courses: any CourseRepository
    let enrolled: EnrolledCourseIDs

    func execute(id: CourseID) async throws(AppError) -> CourseDetail {
        let course = try await courses.course(id: id)
        let isEnrolled = try await enrolled.contains(id)
        guard let prerequisiteID = course.prerequisiteID else {
            return CourseDetail(course: course, prerequisiteTitle: nil, isEnrolled: isEnrolled)
        }
        do {
            let prerequisite = try await courses.course(id: prerequisiteID)
            return CourseDetail(course: course, prerequisiteTitle: prerequisite.title, isEnrolled: isEnrolled)
        } catch .courseNotFound {
            // A prerequisite removed from the catalog no longer blocks anything worth showing.
            return CourseDetail(course: course, prerequisiteTitle: nil, isEnrolled: isEnrolled)
        }
    }
}
