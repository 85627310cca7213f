import Observation
import Presentation
import TerminalUI

/// The `?` overlay: whether it shows and how far it is scrolled. While it shows, keys scroll
/// or close it and reach nothing else.
@Observable
@MainActor
final class HelpOverlayState {
    /// How far the overlay is scrolled; nil while it is closed.
    private(set) var offset: Int?

    var isOpen: Bool { offset != nil }

    func open() { offset = 0 }
    func close() { offset = nil }

    /// Keeps the offset within `maximum` (the terminal changed size).
    func clamp(to maximum: Int) {
        if let offset { self.offset = min(offset, maximum) }
    }

    /// Applies a key while the overlay shows; `page` rows make a page.
    func handle(_ event: InputEvent, page: Int, maximum: Int) {
        guard let offset else { return }
        let wanted: Int
        switch event {
        case .key(.character("?")), .key(.escape), .key(.character("q")):
            self.offset = nil
            return
        case .key(.up), .key(.character("k")): wanted = offset - 1
        case .key(.down), .key(.character("j")): wanted = offset + 1
        case .key(.pageUp): wanted = offset - page
        case .key(.pageDown): wanted = offset + page
        case .key(.home), .key(.character("g")): wanted = 0
        case .key(.end), .key(.character("G")): wanted = maximum
        case .mouse(.wheelUp): wanted = offset - 3
        case .mouse(.wheelDown): wanted = offset + 3
        default: wanted = offset
        }
        self.offset = min(max(0, wanted), maximum)
    }
}
