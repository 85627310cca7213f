import SharedKernel

/// An in-memory `FavouritesRepository` that records every call.
public actor FavouritesRepositorySpy: FavouritesRepository {
    public enum Message: Equatable, Sendable {
        case toggle(userID: UserID, courseID: CourseID)
        case favourites(userID: UserID)
        case favouriteIDs(userID: UserID)
    }

    public private(set) var messages: [Message] = []
    private var stored: Set<CourseID>
    private let courses: [Course]

    public init(courses: [Course] = [], favourites: Set<CourseID> = []) {
        self.courses = courses
        self.stored = favourites
    }

    public func toggle(userID: UserID, courseID: CourseID) async throws(AppError) -> Bool {
        messages.append(.toggle(userID: userID, courseID: courseID))
        if stored.remove(courseID) != nil { return false }
        stored.insert(courseID)
        return true
    }

    public func favourites(userID: UserID) async throws(AppError) -> [Course] {
        messages.append(.favourites(userID: userID))
        return courses.filter { stored.contains($0.id) }.sorted { $0.title < $1.title }
    }

    public func favouriteIDs(userID: UserID) async throws(AppError) -> Set<CourseID> {
        messages.append(.favouriteIDs(userID: userID))
        return stored
    }
}
