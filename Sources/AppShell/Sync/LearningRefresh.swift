import SharedKernel
import Storage

/// Reads the learner's answers and cards in a course from the server into the replica: what
/// the server alone could decide (an answer sent from the queue, checked; a grade refused;
/// another terminal's grades) then shows offline as the server has it. While writes wait, only
/// the answers new here are taken (`SQLiteReplica.adoptLearning`).
struct LearningRefresh: Sendable {
    let server: any LearningRepository
    let replica: SQLiteReplica

    /// Each course's, in turn; failures leave a course as it was (the next save reads it).
    func refresh(_ courses: Set<CourseID>, userID: UserID) async {
        for courseID in courses.sorted(by: { $0.rawValue < $1.rawValue }) { await refresh(courseID, userID: userID) }
    }

    func refresh(_ courseID: CourseID, userID: UserID) async {
        guard let answers = try? await server.answers(userID: userID, courseID: courseID),
            let cards = try? await server.cards(userID: userID, courseID: courseID)
        else { return }
        _ = try? await replica.adoptLearning(answers, cards: cards, courseID: courseID, userID: userID)
    }
}
