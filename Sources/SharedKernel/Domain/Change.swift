/// Something a store changed, named rather than carried: whoever shows it reads it afresh,
/// so what they show is what the store holds then, whatever order the news arrived in.
public enum Change: Hashable, Sendable {
    /// The learner's enrollment in the course: joined, left, a lesson marked, completed.
    case enrollment(UserID, CourseID)
    /// The course became, or stopped being, one of the learner's favourites.
    case favourite(UserID, CourseID)
    /// The learner answered a question of the course (its score, their deck and streak), or,
    /// without a course, reviewed a card (their deck and streak).
    case learning(UserID, CourseID?)
    /// The learner's profile (their name).
    case profile(UserID)
    /// One sign-in of the learner ended (log out, or a refresh token replayed): `signIn` is
    /// its family, the `sid` of its access tokens.
    case signedOut(UserID, signIn: String)
    /// What the catalog shows of one course (its seats taken or freed).
    case course(CourseID)
    /// Many courses at once: an import added or rewrote them.
    case catalog

    /// The learner the change belongs to; nil for the public catalog's changes.
    public var learner: UserID? {
        switch self {
        case .enrollment(let learner, _), .favourite(let learner, _), .learning(let learner, _), .profile(let learner),
            .signedOut(let learner, _):
            learner
        case .course, .catalog: nil
        }
    }
}

/// A change as a store keeps it: ids grow in the order the store committed the changes.
public struct ChangeEvent: Hashable, Sendable {
    public let id: Int64
    public let change: Change

    public init(id: Int64, change: Change) {
        self.id = id
        self.change = change
    }
}

/// What the app hears from a store's feed.
public enum ChangeNews: Hashable, Sendable {
    /// Changes, oldest first: read again what they name.
    case changed([Change])
    /// Changes may have been missed (the feed dropped beyond what the store keeps, or the
    /// store is not the one it was): read again everything that shows.
    case readEverything

    /// This news and `later` as one: what either names, once each; everything when either
    /// says so, or when together they name more than `limit` changes.
    public func merged(with later: ChangeNews, limit: Int) -> ChangeNews {
        guard case .changed(let first) = self, case .changed(let second) = later else { return .readEverything }
        var seen = Set(first)
        let changes = first + second.filter { seen.insert($0).inserted }
        return changes.count > limit ? .readEverything : .changed(changes)
    }
}
