import SharedKernel
import Storage

/// Sends a remote-mode replica's queued writes to the server, one send at a time, and says
/// after each what still waits and what the server refused.
actor OutboxSync {
    /// After a record or a send: how many of the learner's writes wait, and the refusals no
    /// caller took as its own (an older queued write the server turned down).
    struct Report: Sendable {
        var waiting: Int
        var refusals: [AppError] = []
        /// A send no write waited on delivered writes: what the screens show may be the
        /// replica's, and they should read the server's word again.
        var caughtUp = false
        /// The learner's courses whose answers sent the server checked (read back since):
        /// the screens showing them read them again, whether or not the server's news of
        /// them arrived (a stream not yet open after a start offline).
        var checkedAnswers: (learner: UserID, courses: Set<CourseID>)?
    }

    private let outbox: SQLiteOutbox
    private let server: any OperationRepository
    private let report: @MainActor @Sendable (Report) -> Void
    /// Reads back what the server made of answers sent from the queue (before the report,
    /// so the screens that read again find them checked); nil: nothing is read back.
    private let refresh: LearningRefresh?
    /// The learner whose queue is sent when the server comes back.
    private var learner: UserID?
    /// The last send started: the next waits for it, so the queue goes in order, once.
    private var tail: Task<SQLiteOutbox.Sent, Never>?

    init(
        outbox: SQLiteOutbox, server: any OperationRepository, refresh: LearningRefresh? = nil,
        report: @escaping @MainActor @Sendable (Report) -> Void
    ) {
        self.outbox = outbox
        self.server = server
        self.refresh = refresh
        self.report = report
    }

    /// Whose queue is sent from now on (nil: nobody's, signed out). `sending`: theirs is sent
    /// at once (a sign-in), catching up, when anything waits: the count is told first (the
    /// header's `⇡` while the send is under way), and a start with nothing queued reads the
    /// queue once. `beforeSending`: told when something is sent.
    func follow(_ userID: UserID?, sending: Bool = false, beforeSending: @Sendable () -> Void = {}) async {
        learner = userID
        let waiting = await tell(userID: userID, refusals: [])
        // Signed out meanwhile: their queue waits for their next sign-in.
        guard sending, let userID, waiting > 0, learner == userID else { return }
        beforeSending()
        _ = await send(userID: userID, claiming: nil, catchingUp: true)
    }

    /// The learner whose queue is sent (nil: nobody).
    var following: UserID? { learner }

    /// Sends the followed learner's queue; nil when nobody is followed. `catchingUp`: the
    /// report says when it delivered writes, for the screens to read again (at sign-in, on
    /// the server's return: what they read meanwhile was the replica's).
    @discardableResult
    func send(catchingUp: Bool = false) async -> SQLiteOutbox.Sent? {
        guard let learner else { return nil }
        return await send(userID: learner, claiming: nil, catchingUp: catchingUp)
    }

    /// Sends `userID`'s queue after any send under way. The refusal of `claiming` is the
    /// caller's to tell; every other refusal is reported.
    func send(userID: UserID, claiming: OperationID?, catchingUp: Bool = false) async -> SQLiteOutbox.Sent {
        let previous = tail
        let task = Task { [outbox, server] in
            _ = await previous?.value
            return await outbox.send(to: server, userID: userID)
        }
        tail = task
        let sent = await task.value
        if !sent.checkedAnswers.isEmpty { await refresh?.refresh(sent.checkedAnswers, userID: userID) }
        await tell(
            userID: userID, refusals: sent.refused.filter { $0.0.id != claiming }.map(\.1), caughtUp: catchingUp && sent.answered > 0,
            checked: sent.checkedAnswers)
        return sent
    }

    /// Reports what waits, and says how many.
    @discardableResult
    private func tell(userID: UserID?, refusals: [AppError], caughtUp: Bool = false, checked: Set<CourseID> = []) async -> Int {
        var waiting = 0
        if let userID { waiting = (try? await outbox.count(userID: userID)) ?? 0 }
        var report = Report(waiting: waiting, refusals: refusals, caughtUp: caughtUp)
        if let userID, !checked.isEmpty { report.checkedAnswers = (userID, checked) }
        await self.report(report)
        return waiting
    }
}
