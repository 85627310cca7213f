import SharedKernel

/// The four tabs of the header, in order.
public enum AppTab: Int, CaseIterable, Hashable, Sendable {
    case catalog
    case myCourses
    case favourites
    case profile

    public var title: String {
        switch self {
        case .catalog: "Catalog"
        case .myCourses: "My courses"
        case .favourites: "Favourites"
        case .profile: "Profile"
        }
    }

    /// The tab after this one, wrapping around.
    public var next: AppTab { AppTab(rawValue: (rawValue + 1) % Self.allCases.count)! }
    /// The tab before this one, wrapping around.
    public var previous: AppTab { AppTab(rawValue: (rawValue + Self.allCases.count - 1) % Self.allCases.count)! }
}

/// A place in the app that can be pushed on top of a tab's root.
public enum AppDestination: Hashable, Sendable {
    case courseDetail(CourseID)
}
