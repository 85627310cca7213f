import SharedKernel

extension Course {
    /// A valid course with every field defaulted, for tests that care about one or two.
    public static func fixture(
        id: CourseID = "swift-101",
        title: String = "Swift 101",
        instructor: String = "María García",
        category: String? = "Swift",
        level: CourseLevel = .beginner,
        durationMinutes: Int = 150,
        price: Price = Price(minorUnits: 3599, currency: "EUR"),
        capacity: Int? = 40,
        enrolledCount: Int = 12,
        tags: [String] = ["swift"],
        prerequisiteID: CourseID? = nil,
        isActive: Bool = true,
        description: String = "Learn Swift from the ground up.",
        lessonCount: Int = 1
    ) -> Course {
        Course(
            id: id, title: title, instructor: instructor, category: category, level: level,
            durationMinutes: durationMinutes, price: price, capacity: capacity, enrolledCount: enrolledCount,
            tags: tags, prerequisiteID: prerequisiteID, isActive: isActive, description: description, lessonCount: lessonCount
        )
    }
}
