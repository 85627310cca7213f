import SharedKernel

/// Loads one course and the title of its prerequisite.
struct LoadCourseDetailUseCase: Sendable {
    let courses: any CourseRepository

    func execute(id: CourseID) async throws(AppError) -> CourseDetail {
        let course = try await courses.course(id: id)
        guard let prerequisiteID = course.prerequisiteID else {
            return CourseDetail(course: course, prerequisiteTitle: nil)
        }
        do {
            let prerequisite = try await courses.course(id: prerequisiteID)
            return CourseDetail(course: course, prerequisiteTitle: prerequisite.title)
        } catch .courseNotFound {
            // A prerequisite removed from the catalog no longer blocks anything worth showing.
            return CourseDetail(course: course, prerequisiteTitle: nil)
        }
    }
}
