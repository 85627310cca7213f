import EduGoAPI
import OpenAPIRuntime
import SharedKernel

/// One client's `GET /v1/me/events`: its opening events, then what its mailbox gets, as
/// server-sent events (encoded by OpenAPIRuntime). Pulled by the response's writer, so it reads
/// its mailbox only as fast as the client takes what is written. Ends after its sign-in's
/// `signed_out`, when the hub closes, or when the writer stops (the client went away: the
/// subscription is released with the iterator, and the mailbox leaves the hub).
struct EventStream: AsyncSequence, Sendable {
    typealias Element = ServerSentEventWithJSONData<Components.Schemas.ChangeEventData>

    let subscription: Subscription
    /// `ready` or `read_everything`, then the changes missed since `Last-Event-ID`.
    let opening: [Element]
    /// The id of the last change the opening covers: later ones only come from the mailbox.
    let cursor: Int64
    let ids: EventIDs
    /// The opening ends with this sign-in's `signed_out`.
    var endsAfterOpening = false

    func makeAsyncIterator() -> Iterator {
        Iterator(subscription: subscription, pending: opening[...], cursor: cursor, ids: ids, ended: endsAfterOpening)
    }

    struct Iterator: AsyncIteratorProtocol {
        let subscription: Subscription
        var pending: ArraySlice<Element>
        var cursor: Int64
        let ids: EventIDs
        var ended: Bool

        /// An event already at hand, without waiting for the mailbox.
        mutating func nextAtHand() -> Element? {
            pending.popFirst()
        }

        mutating func next() async -> Element? {
            while true {
                if let first = pending.popFirst() { return first }
                guard !ended, let item = await subscription.mailbox.next() else { return nil }
                switch item {
                case .keepAlive:
                    // An event with no field: an empty line, which every client skips.
                    return Element()
                case .readEverything(let through):
                    cursor = Swift.max(cursor, through)
                    pending = [EventStream.readEverything(id: through, ids: ids)]
                case .events(let events):
                    var written: [Element] = []
                    for event in events where event.id > cursor {
                        cursor = event.id
                        written.append(EventStream.element(event, ids: ids))
                        // The sign-in ended: nothing more is this stream's to say.
                        if case .signedOut = event.change {
                            ended = true
                            break
                        }
                    }
                    pending = written[...]
                }
            }
        }
    }

    // MARK: - Events

    static func ready(id: Int64, ids: EventIDs) -> Element {
        Element(event: "ready", data: .init(), id: ids.text(id))
    }

    static func readEverything(id: Int64, ids: EventIDs) -> Element {
        Element(event: "read_everything", data: .init(), id: ids.text(id))
    }

    /// A change as its event: the name says what to read again, the data which course.
    static func element(_ event: ChangeEvent, ids: EventIDs) -> Element {
        let (name, course): (String, CourseID?) =
            switch event.change {
            case .enrollment(_, let course): ("enrollment", course)
            case .favourite(_, let course): ("favourite", course)
            case .learning(_, let course): ("learning", course)
            case .profile: ("profile", nil)
            case .signedOut: ("signed_out", nil)
            case .course(let course): ("course", course)
            case .catalog: ("catalog", nil)
            }
        return Element(event: name, data: .init(courseId: course?.rawValue), id: ids.text(event.id))
    }
}
