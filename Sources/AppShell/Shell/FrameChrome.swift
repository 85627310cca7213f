import Presentation
import SharedKernel
import TerminalUI

/// The frame around every screen: the header with the tabs and who is signed in, the footer
/// with the keys that act now and the status, the `?` overlay over the screen, and the notice
/// when the terminal is too small. Success and error messages go after `statusLifetime`.
@MainActor
final class FrameChrome {
    static let minimumSize = Size(width: 60, height: 16)
    static let statusLifetime: Duration = .seconds(5)

    /// What one frame shows, besides the screen's own drawing.
    struct Content {
        var screen: any Screen
        var coordinator: AppCoordinator?
        var isSignedIn: Bool
        var userName: String?
        /// The overlay's offset and sections, while it shows.
        var help: (offset: Int, sections: [HelpSection])?
        /// The outcome of the last save, shown when the screen has nothing to say.
        var notice: StatusMessage?
        /// The notice was posted while the screen showed progress: it shows over it.
        var noticeOverProgress = false
        /// Remote mode: `Cannot reach …`, while the server cannot be reached.
        var outage: LocalizedText?
        /// The outage's words without the host, for a footer whose keys need the room.
        var shortOutage: LocalizedText?
        /// The store (data directory or server), named in the header from 80 columns.
        var place: String?
        /// The place names a server, whose mark (`●`, `⚠`) says whether it can be reached.
        var placeIsServer = false
        /// The header's counts, between the store and the learner's name.
        var context: [String] = []
        /// The keys in force, for the footer's hints.
        var bindings = KeyBindings.none
        /// The command palette and what it lists, while it shows.
        var palette: (CommandPalette, [PaletteItem])?
        /// The words of the language in force.
        var texts = Texts.english
        /// The notice was posted after the last key: in the accessible mode the cursor goes
        /// to it, so a screen reader says what the key did.
        var noticeIsNews = false
        /// The config file was refused while the app runs: the header keeps a mark.
        var settingsRefused = false
        /// Remote mode: the writes waiting for the server (`⇡ 3 to sync`), at the header's right.
        var waitingWrites: String?
    }

    private let clock: ShellClock
    /// The status message on screen and since when.
    private var shownStatus: (message: StatusMessage, since: Duration)?
    /// A message a question or progress replaced: its moment is over, it is not shown again.
    /// Posted messages are numbered (`StatusMessage.posting`), so the same words posted again
    /// are another message, and show.
    private var retiredStatus: StatusMessage?
    /// When the status on screen goes; the runtime draws a frame then.
    private(set) var statusExpiry: Duration?

    init(clock: ShellClock) {
        self.clock = clock
    }

    /// The rows between the header and the footer.
    static func screenArea(_ size: Size) -> Rect {
        Rect(x: 0, y: 1, width: size.width, height: size.height - 2)
    }

    static func isTooSmall(_ size: Size) -> Bool {
        size.width < minimumSize.width || size.height < minimumSize.height
    }

    /// The too-small notice, alone on the terminal.
    static func drawTooSmall<C: Canvas>(in canvas: inout C, texts: Texts) {
        let size = canvas.size
        let message = texts("Terminal too small: need \(verbatim: minimumSize), have \(verbatim: size)")
        StateView.drawMessage([message], in: &canvas, area: Rect(x: 0, y: 0, width: size.width, height: size.height), styles: [.bold])
    }

    /// Draws the whole frame around `content.screen`. Returns whether something on it animates.
    /// Draws a whole frame of `content` (nil: nothing to show yet), in the accessible mode's
    /// plain cells when `accessible`, or the too-small notice. Whether something animates.
    func draw<C: Canvas>(
        in canvas: inout C, tick: Int, accessible: Bool, texts: Texts, content: () -> Content?
    ) -> Bool {
        guard accessible else { return drawWhole(in: &canvas, tick: tick, texts: texts, content: content) }
        var plain = AccessibleCanvas(canvas)
        let animates = drawWhole(in: &plain, tick: tick, texts: texts, content: content)
        canvas = plain.base
        return animates
    }

    private func drawWhole<C: Canvas>(in canvas: inout C, tick: Int, texts: Texts, content: () -> Content?) -> Bool {
        guard !Self.isTooSmall(canvas.size) else {
            Self.drawTooSmall(in: &canvas, texts: texts)
            return false
        }
        guard let content = content() else { return false }
        return draw(content, in: &canvas, tick: tick)
    }

    /// The header's mark at its right edge: the config file refused, the writes waiting.
    static func headerMark(settingsRefused: Bool, waitingWrites: String?, texts: Texts) -> String? {
        let parts = [settingsRefused ? texts("✗ settings") : nil, waitingWrites].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    func draw<C: Canvas>(_ content: Content, in canvas: inout C, tick: Int) -> Bool {
        let size = canvas.size
        let screen = content.screen
        let texts = content.texts
        // The mark in the header: the server is out of reach, what shows may be behind. A
        // server's place says it too (`host ⚠`): the name carries it only where that is not drawn.
        let outOfReach = content.outage != nil
        let placeSaysIt = outOfReach && content.isSignedIn && content.placeIsServer
        // Words in the accessible mode, which a screen reader says as they mean.
        let offline = canvas.isAccessible ? texts("offline") : "⚠"
        let headerName = !outOfReach || placeSaysIt ? content.userName : offline + " " + (content.userName ?? texts("offline"))
        HeaderBar.draw(
            in: &canvas, row: 0, tabs: content.isSignedIn ? AppTab.allCases.map { texts($0.title) } : [],
            shortTabs: content.isSignedIn ? AppTab.allCases.map { texts($0.shortTitle) } : [],
            selectedTab: content.coordinator?.tab.rawValue ?? 0, userName: headerName,
            mark: Self.headerMark(settingsRefused: content.settingsRefused, waitingWrites: content.waitingWrites, texts: texts),
            place: content.isSignedIn ? content.place : nil, context: content.isSignedIn ? content.context : [],
            nameMark: placeSaysIt ? offline : nil
        )
        let area = Self.screenArea(size)
        screen.draw(in: &canvas, frame: Frame(area: area, tick: tick, texts: texts))
        // The accessible mode never animates: what changes is said once, in words.
        let animates = screen.isAnimating && !canvas.isAccessible
        // An overlay with no frame around it (the accessible mode) stands alone on the screen.
        if canvas.isAccessible, content.palette != nil || content.help != nil { canvas.fill(area, style: .normal) }
        if let (palette, items) = content.palette {
            canvas.setCursor(nil)
            palette.draw(items, in: &canvas, area: area, texts: texts)
            Footer.draw(
                in: &canvas, row: size.height - 1,
                hints: [KeyHint("Enter", "run"), KeyHint("↑↓", "choose"), KeyHint("Esc", "close")], status: nil, texts: texts)
            return animates
        }
        if let help = content.help {
            canvas.setCursor(nil)
            HelpOverlay.draw(help.sections, in: &canvas, area: area, offset: help.offset, texts: texts)
            let scroll = HelpOverlay.maximumOffset(help.sections, area: area, texts: texts) > 0 ? [KeyHint("↑↓", "scroll")] : []
            Footer.draw(in: &canvas, row: size.height - 1, hints: [KeyHint("? Esc", "close help")] + scroll, status: nil, texts: texts)
            if canvas.isAccessible { canvas.setCursor((x: area.x + 1, y: area.y)) }
            return animates
        }
        // While a screen holds the keyboard (a text field, a y/n question) the global keys
        // do not apply, so the footer does not offer them.
        let global =
            screen.isCapturingText || !content.isSignedIn
            ? [] : Self.globalHints(content.coordinator, content.bindings, digitsTaken: screen.takesDigits)
        // A key the screen gives a meaning of its own now (`Esc` back to a lesson's text) is
        // offered once, with that meaning.
        let own = screen.availableKeys
        // A key bound only to letters does nothing in a field: its hint goes.
        let ownHints = own.compactMap { declaration -> KeyHint? in
            let keys = content.bindings.display(declaration)
            guard !keys.isEmpty else { return nil }
            return KeyHint(keys, screen.footerLabel(of: declaration), short: screen.footerShortLabel(of: declaration))
        }
        var hints = ownHints + global.filter { hint in !ownHints.contains { $0.key == hint.key } }
        // A message never hides every key: the help key stays at the right, or, while `?`
        // would be typed into a field, the field's last key (`Esc clear`, `n no`).
        var status = visibleStatus(statusToShow(screen.statusMessage, notice: content.notice, overProgress: content.noticeOverProgress))
        if let outage = content.outage {
            // The countdown needs a frame a second; the screen's own news still comes first.
            // A card's grades (keys with short labels) keep their room: the host, which the
            // header names, goes where they would not fit. Elsewhere the words are SPEC's.
            if status == nil, ownHints.contains(where: { $0.short != nil }) {
                let long = StatusMessage(outage, kind: .error)
                let keys = ownHints.reduce(0) { $0 + $1.shownKey(texts).displayWidth + 1 + texts($1.short ?? $1.label).displayWidth + 2 }
                let help = content.bindings.hint(GlobalKeys.help)
                let helpWidth = help.shownKey(texts).displayWidth + 1 + texts(help.label).displayWidth + 2
                let fits = 1 + long.displayText(texts).displayWidth + 3 + keys + helpWidth <= size.width
                status = fits ? long : StatusMessage(content.shortOutage ?? outage, kind: .error)
            } else if status == nil {
                status = StatusMessage(outage, kind: .error)
            }
            let tick = clock.now + .seconds(1)
            statusExpiry = min(statusExpiry ?? tick, tick)
        }
        // Loading, said in words where the cursor goes, in place of a spinner.
        if canvas.isAccessible, status == nil, screen.isAnimating { status = StatusMessage("Loading…") }
        let help = content.bindings.hint(GlobalKeys.help)
        let pinned = screen.isCapturingText ? (status == nil ? nil : hints.popLast()) : help
        let statusEnd = Footer.draw(in: &canvas, row: size.height - 1, hints: hints, status: status, pinned: pinned, texts: texts)
        if canvas.isAccessible {
            canvas.setCursor(Self.accessibleCursor(canvas, status: status, statusEnd: statusEnd, content: content, area: area))
        }
        return animates
    }

    /// Where the accessible mode's cursor goes, so a screen reader or a braille display follows
    /// what matters now: the field being typed in; else the end of a question (`(y/n)`); else
    /// the status line while it says what the last key did (`Enrolled in …`, an error) or that
    /// something is loading; else the selected row or the screen's message; else the top.
    static func accessibleCursor(
        _ canvas: some Canvas, status: StatusMessage?, statusEnd: Int?, content: Content, area: Rect
    ) -> (x: Int, y: Int) {
        let statusRow = canvas.size.height - 1
        if let field = canvas.cursor, content.screen.isCapturingText { return field }
        if let status, let end = statusEnd {
            if status.question != nil || status.text.key.hasSuffix("(y/n)") { return (min(end + 1, canvas.size.width - 1), statusRow) }
            let isNews = content.noticeIsNews && status == content.notice
            if isNews || status.isProgress { return (1, statusRow) }
        }
        if let field = canvas.cursor { return field }
        return canvas.focus ?? (area.x + 1, area.y)
    }

    /// The screen's own message, else the notice; but a notice posted while the screen showed
    /// progress (`Saving…`) is news about what happened since (a key that could not act
    /// meanwhile says why): it shows for its moment, then the progress again.
    private func statusToShow(_ own: StatusMessage?, notice: StatusMessage?, overProgress: Bool) -> StatusMessage? {
        guard let own, own.isProgress, overProgress, let notice, notice != retiredStatus else { return own ?? notice }
        if let shown = shownStatus, shown.message == notice, clock.now >= shown.since + Self.statusLifetime { return own }
        return notice
    }

    /// The status to draw: questions and progress (`Saving…`) stay while they apply; a
    /// success or an error goes after `statusLifetime`, or when the next one replaces it.
    private func visibleStatus(_ status: StatusMessage?) -> StatusMessage? {
        guard let status, status.kind != .info else {
            // A question or progress that replaces a message ends that message's moment:
            // when the question goes, the older message does not come back.
            if status != nil, let shown = shownStatus?.message { retiredStatus = shown }
            shownStatus = nil
            statusExpiry = nil
            return status
        }
        if status == retiredStatus {
            statusExpiry = nil
            return nil
        }
        retiredStatus = nil
        let now = clock.now
        if shownStatus?.message != status { shownStatus = (status, now) }
        let expiry = (shownStatus?.since ?? now) + Self.statusLifetime
        guard now < expiry else {
            statusExpiry = nil
            return nil
        }
        statusExpiry = expiry
        return status
    }

    private static func globalHints(_ coordinator: AppCoordinator?, _ bindings: KeyBindings, digitsTaken: Bool) -> [KeyHint] {
        guard let coordinator else { return [] }
        let tabs = digitsTaken ? GlobalKeys.altTabs : GlobalKeys.tabs
        return (coordinator.isAtRoot ? [tabs, GlobalKeys.quit] : [GlobalKeys.back, tabs]).map(bindings.hint)
    }
}
