import Presentation
import TerminalUI

/// Turns a second click on the same cell within `interval` into a double click. Pure: the
/// caller gives the time of each event.
struct ClickCounter: Sendable {
    static let interval: Duration = .milliseconds(400)

    private var last: (x: Int, y: Int, at: ContinuousClock.Instant)?

    init() {}

    mutating func apply(_ event: InputEvent, at now: ContinuousClock.Instant) -> InputEvent {
        guard case .mouse(.click(let x, let y)) = event else { return event }
        if let last, last.x == x, last.y == y, now - last.at <= Self.interval {
            self.last = nil  // a third click starts over
            return .mouse(.doubleClick(x: x, y: y))
        }
        last = (x, y, now)
        return event
    }
}
