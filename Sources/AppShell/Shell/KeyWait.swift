import Presentation
import TerminalUI

/// How long a key waits for the screen in front to take it: as long as the screen takes
/// (which the local store bounds), or in remote mode at most `limit`, past which the key is
/// dropped (a screen waiting on a server that does not answer).
@MainActor
struct KeyWait {
    let clock: ShellClock
    var limit: Duration?

    enum Outcome {
        case ready(any Screen)
        /// It waited `limit` and the screen still could not take it.
        case dropped
        case cancelled
    }

    /// Waits until the screen in front (`front`, brought to the front by `sync`) accepts
    /// `event`; keys typed before the stored session is read wait for it too.
    func screen(
        for event: InputEvent, front: @escaping @MainActor () -> (any Screen)?, sync: @MainActor () -> Void
    ) async -> Outcome {
        while !Task.isCancelled {
            sync()
            guard let screen = front() else {
                await ObservedCondition.wait { front() != nil }
                continue
            }
            if screen.accepts(event) { return .ready(screen) }
            guard await clock.wait(upTo: limit, until: { front() !== screen || screen.accepts(event) }) else { return .dropped }
        }
        return .cancelled
    }
}
