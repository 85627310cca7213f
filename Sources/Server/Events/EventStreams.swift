import EduGoAPI
import OpenAPIRuntime
import SharedKernel

/// Opens `GET /v1/me/events` for a signed-in caller: where the stream starts (`ready`), or a
/// resume from `Last-Event-ID` (the changes missed since, from the log), or `read_everything`
/// when those cannot be given; then the hub's changes, live.
struct EventStreams: Sendable {
    /// The most of a learner's changes a resume sends; further back, `read_everything` is less.
    static let backlogLimit = 1_000

    let hub: ChangeHub
    let log: any ChangeLog
    let ids: EventIDs
    let tokens: TokenService

    /// The caller's stream on `connection`, which it closes when its client stops reading, and
    /// which ends it when it closes.
    func open(for caller: Caller, lastEventID: String?, connection: ClientConnection?) async throws(APIFailure) -> EventStream {
        let mailbox = EventMailbox(learner: caller.userID, signIn: caller.family, closeConnection: { connection?.close() })
        // Subscribed first, then the sign-in checked again: an end of it after this check comes
        // to the mailbox (or the backlog), and one before it fails the check.
        let subscription: Subscription
        switch hub.subscribe(mailbox) {
        case .subscribed(let subscribed): subscription = subscribed
        case .notReady: throw Self.unavailable
        case .learnerHasEnough: throw APIFailure.tooManyStreams(hub.streamsPerLearner)
        case .full: throw APIFailure.busy
        }
        connection?.whenClosed { mailbox.finish() }
        try await tokens.check(caller)

        guard let text = lastEventID, !text.isEmpty else {
            return EventStream(
                subscription: subscription, opening: [EventStream.ready(id: subscription.start, ids: ids)], cursor: subscription.start,
                ids: ids)
        }
        guard let resumed = ids.position(text) else { return try await readingEverything(subscription) }
        let batch: ChangeBatch
        do {
            batch = try await log.changes(after: resumed, for: caller.userID, limit: Self.backlogLimit + 1)
        } catch {
            throw APIFailure(error)
        }
        switch batch {
        case .gap(let newest):
            return EventStream(
                subscription: subscription, opening: [EventStream.readEverything(id: newest, ids: ids)], cursor: newest, ids: ids)
        case .events(let events) where events.count > Self.backlogLimit:
            return try await readingEverything(subscription)
        case .events(let events):
            // Another sign-in's end is not this stream's news.
            var opening = [EventStream.ready(id: resumed, ids: ids)]
            var cursor = resumed
            var signedOut = false
            for event in events where mailbox.accepts(event.change) {
                opening.append(EventStream.element(event, ids: ids))
                cursor = event.id
                // Its sign-in ended after the check above: said, and the stream ends there.
                if case .signedOut = event.change {
                    signedOut = true
                    break
                }
            }
            return EventStream(subscription: subscription, opening: opening, cursor: cursor, ids: ids, endsAfterOpening: signedOut)
        }
    }

    /// A stream that starts by saying read everything, as of the newest change.
    private func readingEverything(_ subscription: Subscription) async throws(APIFailure) -> EventStream {
        let newest: Int64
        do {
            newest = max(try await log.newestChangeID(), subscription.start)
        } catch {
            throw APIFailure(error)
        }
        return EventStream(
            subscription: subscription, opening: [EventStream.readEverything(id: newest, ids: ids)], cursor: newest, ids: ids)
    }

    /// The hub has not read the log yet (the database away since the start), or is closing.
    static let unavailable = APIFailure(AppError.connectivity)
}
