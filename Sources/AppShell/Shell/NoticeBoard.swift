import Observation
import Presentation

/// The footer's notice from outside the screen in front: the outcome of the last save,
/// whichever screen made it, or why the last key could not act. Each is numbered, so the same
/// words again are a new moment, and one posted after the last key is news of it.
@Observable
@MainActor
final class NoticeBoard {
    private(set) var notice: StatusMessage?
    /// The notice was posted while the screen in front showed progress (`Saving…`): it is
    /// newer, and shows over it for its moment.
    @ObservationIgnored private(set) var isOverProgress = false
    /// How many messages were posted.
    @ObservationIgnored private var postings = 0
    /// The postings there were when the last key came.
    @ObservationIgnored private var postingsAtLastKey = 0

    /// Shows `message` as a new moment, whatever was shown before.
    func post(_ message: StatusMessage, overProgress: Bool) {
        postings += 1
        isOverProgress = overProgress
        notice = message.posted(postings)
    }

    /// A key came: what is posted from now on is news of it.
    func keyArrived() {
        postingsAtLastKey = postings
    }

    /// The notice was posted after the last key.
    var isNews: Bool { (notice?.posting ?? 0) > postingsAtLastKey }

    func clear() {
        notice = nil
    }
}
