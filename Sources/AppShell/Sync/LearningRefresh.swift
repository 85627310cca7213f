import SharedKernel
import Storage

/// Reads the learner's answers and cards in a course from the server into the replica, once
/// nothing waits to be sent: what the server alone could decide (an answer sent from the
/// queue, checked; a grade refused) then shows offline as the server has it.
struct LearningRefresh: Sendable {
    let server: any LearningRepository
    let replica: SQLiteReplica
    let outbox: SQLiteOutbox

    /// The course's answers as the server has them now; nil when they could not be read, or
    /// writes still wait (the next save reads them).
    @discardableResult
    func refresh(_ courseID: CourseID, userID: UserID) async -> [Answer]? {
        guard (try? await outbox.count(userID: userID)) == 0,
            let answers = try? await server.answers(userID: userID, courseID: courseID),
            let cards = try? await server.cards(userID: userID, courseID: courseID)
        else { return nil }
        _ = try? await replica.adoptLearning(answers, cards: cards, courseID: courseID, userID: userID)
        return answers
    }
}
