import SharedKernel
import TerminalUI

/// The frame around every screen (header, footer, too-small notice) and the global keys.
@MainActor
final class ShellController {
    static let minimumSize = Size(width: 60, height: 16)

    enum Outcome: Equatable {
        case keepRunning
        case quit
    }

    let coordinator: AppCoordinator
    private let router: ScreenRouter
    private let session: SessionState
    /// Held, not just identified: after a reset a new screen could reuse a freed address.
    private var visibleScreen: (any Screen)?
    /// How far the `?` help overlay is scrolled; nil while it is closed.
    private(set) var helpOffset: Int?

    init(coordinator: AppCoordinator, router: ScreenRouter, session: SessionState) {
        self.coordinator = coordinator
        self.router = router
        self.session = session
        router.sessionEvents = self
    }

    /// The screen in front: the login screen while nobody is signed in, else the current tab's.
    private var frontScreen: (any Screen)? {
        switch session.phase {
        case .unknown: nil
        case .signedOut: router.loginScreen
        case .signedIn: router.currentScreen
        }
    }

    /// Lets a screen that just became visible start loading. Called before each frame,
    /// outside observation tracking.
    func prepareFrame() {
        guard let screen = frontScreen else { return }
        guard visibleScreen !== screen else { return }
        visibleScreen = screen
        screen.appear()
    }

    /// Draws the whole frame. Returns whether something on it animates.
    func draw<C: Canvas>(in canvas: inout C, tick: Int) -> Bool {
        let size = canvas.size
        guard size.width >= Self.minimumSize.width, size.height >= Self.minimumSize.height else {
            let message = "Terminal too small: need \(Self.minimumSize), have \(size)"
            let area = Rect(x: 0, y: 0, width: size.width, height: size.height)
            StateView.drawMessage([message], in: &canvas, area: area, styles: [.bold])
            return false
        }
        guard let screen = frontScreen else { return false }
        let signedIn = session.user != nil
        HeaderBar.draw(
            in: &canvas, row: 0, tabs: signedIn ? AppTab.allCases.map(\.title) : [],
            selectedTab: coordinator.tab.rawValue, userName: session.user?.name
        )
        let area = Rect(x: 0, y: 1, width: size.width, height: size.height - 2)
        screen.draw(in: &canvas, frame: Frame(area: area, tick: tick))
        if let helpOffset {
            canvas.setCursor(nil)
            let sections = helpSections(for: screen)
            HelpOverlay.draw(sections, in: &canvas, area: area, offset: helpOffset)
            let scroll = HelpOverlay.maximumOffset(sections, area: area) > 0 ? [KeyHint("↑↓", "scroll")] : []
            Footer.draw(in: &canvas, row: size.height - 1, hints: [KeyHint("? Esc", "close help")] + scroll, status: nil)
            return screen.isAnimating
        }
        // While a screen holds the keyboard (a text field, a y/n question) the global keys
        // do not apply, so the footer does not offer them.
        let hints = screen.isCapturingText ? screen.keyHints : screen.keyHints + globalHints
        Footer.draw(in: &canvas, row: size.height - 1, hints: hints, status: screen.statusMessage)
        return screen.isAnimating
    }

    private var globalHints: [KeyHint] {
        coordinator.isAtRoot
            ? [KeyHint("1-4", "tabs"), KeyHint("?", "help"), KeyHint("q", "quit")]
            : [KeyHint("Esc", "back"), KeyHint("1-4", "tabs"), KeyHint("?", "help")]
    }

    /// The current screen's keys, then the keys that work everywhere.
    private func helpSections(for screen: any Screen) -> [HelpSection] {
        let title = coordinator.isAtRoot ? coordinator.tab.title : "Course"
        return [
            HelpSection(title, keys: screen.helpKeys),
            HelpSection("Everywhere", keys: [
                KeyHint("1 2 3 4", "switch tab"),
                KeyHint("Tab  Shift-Tab", "next / previous tab"),
                KeyHint("Esc", "back"),
                KeyHint("q", "back; quit at a tab's root"),
                KeyHint("?", "this help"),
                KeyHint("Ctrl-C", "quit at once"),
            ]),
        ]
    }

    /// Gives the event to the screen first, then applies the global keys it did not use.
    func handle(_ event: InputEvent, terminalSize: Size) -> Outcome {
        if event == .key(.control("c")) { return .quit }
        let tooSmall = terminalSize.width < Self.minimumSize.width || terminalSize.height < Self.minimumSize.height
        if tooSmall {
            return event == .key(.character("q")) ? .quit : .keepRunning
        }
        guard let screen = frontScreen else { return .keepRunning }
        if let helpOffset {
            handleHelp(event, offset: helpOffset, screen: screen, terminalSize: terminalSize)
            return .keepRunning
        }
        if screen.isCapturingText {
            _ = screen.handle(event)
            return .keepRunning
        }
        if screen.handle(event) == .handled { return .keepRunning }
        return handleGlobal(event)
    }

    /// While the help shows, keys scroll or close it and reach nothing else.
    private func handleHelp(_ event: InputEvent, offset: Int, screen: any Screen, terminalSize: Size) {
        let area = Rect(x: 0, y: 1, width: terminalSize.width, height: terminalSize.height - 2)
        let maximum = HelpOverlay.maximumOffset(helpSections(for: screen), area: area)
        let page = max(1, area.height - 2)
        let wanted: Int
        switch event {
        case .key(.character("?")), .key(.escape), .key(.character("q")):
            helpOffset = nil
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
        helpOffset = min(max(0, wanted), maximum)
    }

    private func handleGlobal(_ event: InputEvent) -> Outcome {
        switch event {
        case .key(.character("?")):
            helpOffset = 0
        case .key(.character(let character)) where ("1"..."4").contains(character):
            let index = Int(String(character))! - 1
            coordinator.switchTab(to: AppTab(rawValue: index)!)
        case .key(.tab):
            coordinator.switchTab(to: coordinator.tab.next)
        case .key(.backTab):
            coordinator.switchTab(to: coordinator.tab.previous)
        case .key(.escape):
            coordinator.pop()
        case .key(.character("q")):
            if !coordinator.pop() { return .quit }
        default:
            break
        }
        return .keepRunning
    }
}

extension ShellController: SessionEvents {
    func signedIn(as user: User) {
        router.reset()
        coordinator.switchTab(to: .catalog)
        session.signedIn(user)
    }

    func nameChanged(to user: User) {
        session.signedIn(user)
    }

    /// Clears the navigation and every screen of the learner, then shows the login screen.
    func loggedOut() {
        helpOffset = nil
        router.reset()
        coordinator.switchTab(to: .catalog)
        session.signedOut()
    }
}
