import SharedKernel

/// The five tabs of the header, in order.
enum AppTab: Int, CaseIterable, Hashable, Sendable {
    case catalog
    case myCourses
    case favourites
    case profile
    case review

    var title: LocalizedText {
        switch self {
        case .catalog: "Catalog"
        case .myCourses: "My courses"
        case .favourites: "Favourites"
        case .profile: "Profile"
        case .review: "Review"
        }
    }

    /// The title where the full ones do not fit (the smallest terminal).
    var shortTitle: LocalizedText {
        switch self {
        case .catalog: "Catalog"
        case .myCourses: "Mine"
        case .favourites: "Favs"
        case .profile: "Profile"
        case .review: "Review"
        }
    }

    /// The tab after this one, wrapping around.
    var next: AppTab { Self.allCases[(rawValue + 1) % Self.allCases.count] }
    /// The tab before this one, wrapping around.
    var previous: AppTab { Self.allCases[(rawValue + Self.allCases.count - 1) % Self.allCases.count] }

    /// The tab a number key shows: `1` the catalog … `5` the review.
    init?(numberKey: Character) {
        guard numberKey.isASCII, let number = numberKey.wholeNumberValue, number >= 1 else { return nil }
        self.init(rawValue: number - 1)
    }
}

/// A place in the app that can be pushed on top of a tab's root.
enum AppDestination: Hashable, Sendable {
    case courseDetail(CourseID)
    /// A lesson of a course in the reader, by its number from 1.
    case lesson(CourseID, Int)
}
