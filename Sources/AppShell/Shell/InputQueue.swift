import Presentation
import TerminalUI

/// The one queue every key goes through, in the order typed: one worker applies them one at
/// a time, each after the one before it is done (SPEC, "Keys, waiting and saving").
@MainActor
final class InputQueue {
    enum Outcome: Equatable {
        case keepRunning
        case quit
    }

    private var queue: [InputEvent] = []
    private var worker: Task<Void, Never>?
    /// Applies one event; the queue waits for it.
    private let apply: @MainActor (InputEvent) async -> Outcome
    /// Called when an event asks to quit; the keys behind it are dropped.
    private let onQuit: @MainActor () -> Void

    init(apply: @escaping @MainActor (InputEvent) async -> Outcome, onQuit: @escaping @MainActor () -> Void) {
        self.apply = apply
        self.onQuit = onQuit
    }

    /// True while keys wait or one is being applied.
    var isBusy: Bool { worker != nil }

    func append(_ events: [InputEvent]) {
        queue += events
        guard worker == nil, !queue.isEmpty else { return }
        worker = Task { [weak self] in await self?.drainQueue() }
    }

    /// Drops every key still waiting (Ctrl-C); the one being applied finishes.
    func clear() {
        queue.removeAll()
    }

    /// Waits until every key typed so far has been applied.
    func drain() async {
        await worker?.value
    }

    /// Stops the worker: the app is ending.
    func cancel() {
        queue.removeAll()
        worker?.cancel()
    }

    private func drainQueue() async {
        while !queue.isEmpty {
            let event = queue.removeFirst()
            if await apply(event) == .quit {
                queue.removeAll()
                worker = nil
                onQuit()
                return
            }
        }
        worker = nil
    }
}
