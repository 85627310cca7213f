import Observation
import Presentation
import SharedKernel
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

    /// Keeps the offset within what `sections` need in a terminal of `size` (it changed size).
    func clamp(_ sections: [HelpSection], in size: Size, texts: Texts) {
        if let offset { self.offset = min(offset, Self.maximumOffset(sections, in: size, texts: texts)) }
    }

    /// Applies a key while the overlay shows `sections` in a terminal of `size`.
    func handle(_ event: InputEvent, showing sections: [HelpSection], in size: Size, texts: Texts) {
        let area = FrameChrome.screenArea(size)
        handle(event, page: max(1, area.height - 2), maximum: Self.maximumOffset(sections, in: size, texts: texts))
    }

    private static func maximumOffset(_ sections: [HelpSection], in size: Size, texts: Texts) -> Int {
        HelpOverlay.maximumOffset(sections, area: FrameChrome.screenArea(size), texts: texts)
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
