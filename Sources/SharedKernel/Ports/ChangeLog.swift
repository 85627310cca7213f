/// Where a store keeps the changes it made, in the order it committed them, each written in
/// the transaction of the change itself (so none is kept for a change that was not, and none
/// is lost for one that was). The newest are kept; older ones are forgotten in time.
public protocol ChangeLog: Sendable {
    /// The id of the newest change kept; 0 when there is none yet.
    func newestChangeID() async throws(AppError) -> Int64
    /// Up to `limit` changes after `id`, oldest first: `learner`'s own and the public
    /// catalog's, or everyone's when `learner` is nil. `.gap` when changes after `id` were
    /// forgotten already, or `id` is past the newest (an id of another database).
    func changes(after id: Int64, for learner: UserID?, limit: Int) async throws(AppError) -> ChangeBatch
}

/// Changes read from a log.
public enum ChangeBatch: Hashable, Sendable {
    case events([ChangeEvent])
    /// The changes after the id asked for cannot all be given.
    case gap(newest: Int64)
}

/// How many changes a log keeps: a terminal away for longer reads everything again.
public enum ChangeRetention {
    public static let kept: Int64 = 100_000
}

/// The app's side of a store's changes: from the moment it is asked, the news of the
/// learner's own changes and the public catalog's, whoever made them (this terminal, another
/// one, another process on the same database, the API). Ends when the caller stops reading.
public protocol ChangeFeed: Sendable {
    func news(for learner: UserID) -> AsyncStream<ChangeNews>
}
