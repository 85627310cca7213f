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
        // While a screen holds the keyboard (a text field, a y/n question) the global keys
        // do not apply, so the footer does not offer them.
        let hints = screen.isCapturingText ? screen.keyHints : screen.keyHints + globalHints
        Footer.draw(in: &canvas, row: size.height - 1, hints: hints, status: screen.statusMessage)
        return screen.isAnimating
    }

    private var globalHints: [KeyHint] {
        coordinator.isAtRoot
            ? [KeyHint("1-4", "tabs"), KeyHint("q", "quit")]
            : [KeyHint("Esc", "back"), KeyHint("1-4", "tabs")]
    }

    /// Gives the event to the screen first, then applies the global keys it did not use.
    func handle(_ event: InputEvent, terminalSize: Size) -> Outcome {
        if event == .key(.control("c")) { return .quit }
        let tooSmall = terminalSize.width < Self.minimumSize.width || terminalSize.height < Self.minimumSize.height
        if tooSmall {
            return event == .key(.character("q")) ? .quit : .keepRunning
        }
        guard let screen = frontScreen else { return .keepRunning }
        if screen.isCapturingText {
            _ = screen.handle(event)
            return .keepRunning
        }
        if screen.handle(event) == .handled { return .keepRunning }
        return handleGlobal(event)
    }

    private func handleGlobal(_ event: InputEvent) -> Outcome {
        switch event {
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
        router.reset()
        coordinator.switchTab(to: .catalog)
        session.signedOut()
    }
}
