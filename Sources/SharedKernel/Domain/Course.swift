/// A course of the EduGo catalog.
public struct Course: Identifiable, Hashable, Sendable {
    public let id: CourseID
    public var title: String
    public var instructor: String
    public var category: String?
    public var level: CourseLevel
    public var durationMinutes: Int
    public var price: Price
    /// `nil` means the course takes any number of learners.
    public var capacity: Int?
    public var enrolledCount: Int
    public var tags: [String]
    public var prerequisiteID: CourseID?
    public var isActive: Bool
    public var description: String
    /// How many lessons the syllabus has (`CourseLimits.lessons`).
    public var lessonCount: Int

    public init(
        id: CourseID,
        title: String,
        instructor: String,
        category: String? = nil,
        level: CourseLevel,
        durationMinutes: Int,
        price: Price,
        capacity: Int? = nil,
        enrolledCount: Int = 0,
        tags: [String] = [],
        prerequisiteID: CourseID? = nil,
        isActive: Bool = true,
        description: String,
        lessonCount: Int = 1
    ) {
        self.id = id
        self.title = title
        self.instructor = instructor
        self.category = category
        self.level = level
        self.durationMinutes = durationMinutes
        self.price = price
        self.capacity = capacity
        self.enrolledCount = enrolledCount
        self.tags = tags
        self.prerequisiteID = prerequisiteID
        self.isActive = isActive
        self.description = description
        self.lessonCount = lessonCount
    }

    /// Seats still free, or `nil` when the course has no capacity limit. Never negative, and
    /// never a trap, whatever the two numbers are (a negative count counts as none).
    public var seatsLeft: Int? {
        capacity.map { max(0, Saturating.subtract($0, max(0, enrolledCount))) }
    }

    /// No seat left: the capacity is taken, or, for a course without one, the most learners
    /// any course holds (`CourseLimits.seats`), so a count can never overflow.
    public var isFull: Bool { enrolledCount >= (capacity ?? CourseLimits.seats.upperBound) }
}

extension Course {
    /// The category as the learner's language names it: the seed catalog's are translated
    /// (`Business`: `Negocios`), any other is shown as the data gives it.
    public var categoryName: LocalizedText? {
        category.map { LocalizedText(stringLiteral: $0).context(Self.categoryContext) }
    }

    /// The catalog context of a category's name (`Business|category`).
    public static let categoryContext = "category"
}
