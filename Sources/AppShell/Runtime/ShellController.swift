import Observation
import Presentation
import Profile
import SharedKernel
import TerminalUI

/// The frame around every screen (header, footer, too-small notice, help overlay), who is
/// signed in, the global keys, and the one input queue every key goes through.
///
/// Keys are applied in the order typed, each to what the screen shows when it takes effect:
/// a key waits while the screen in front cannot take it (its search, page or the screen
/// itself is loading), and the keys after it wait behind it. Only Ctrl-C jumps the queue.
@Observable
@MainActor
final class ShellController {
    static let minimumSize = Size(width: 60, height: 16)

    enum Outcome: Equatable {
        case keepRunning
        case quit
    }

    let session = SessionState()
    /// The signed-in learner's features and screens.
    private(set) var scope: LearnerScope?
    /// The sign-in screen, while nobody is signed in.
    private(set) var loginScreen: (any Screen)?
    /// The learner whose session the server ended, kept as they left it while they sign in
    /// again: the same learner comes back to it.
    @ObservationIgnored private var suspendedScope: LearnerScope?
    /// The stored session could not be read for want of the server: read it once it answers.
    @ObservationIgnored private var restorePending = false
    /// How far the `?` help overlay is scrolled; nil while it is closed.
    private(set) var helpOffset: Int?
    /// The outcome of the last save, whichever screen made it: shown when the screen in front
    /// has nothing of its own to say.
    private(set) var notice: StatusMessage?
    /// Remote mode: the server's outages, shown in the header and footer while they last.
    var outage: OutageMonitor?
    /// Remote mode: the longest a key waits for the screen in front to take it (a screen
    /// waiting on a server that does not answer); past it the key is dropped and the learner
    /// told. Nil: keys wait as long as the screen takes, which the local store bounds.
    @ObservationIgnored var keyWaitLimit: Duration?
    static let droppedKeyMessage = "A key was dropped: the server did not answer in time"
    /// The terminal's size, for the too-small notice and the overlay's page.
    var terminalSize = Size(width: 80, height: 24)

    @ObservationIgnored private let ports: AppPorts
    @ObservationIgnored private var queue: [InputEvent] = []
    @ObservationIgnored private var worker: Task<Void, Never>?
    /// Called once when a key asks to quit.
    @ObservationIgnored var onQuit: @MainActor () -> Void = {}
    /// Held, not just identified: after a sign-out a new screen could reuse a freed address.
    @ObservationIgnored private var visibleScreen: (any Screen)?
    /// The status message on screen and since when: success and error messages go after
    /// `statusLifetime`.
    @ObservationIgnored private var shownStatus: (message: StatusMessage, since: ContinuousClock.Instant)?
    /// When the status on screen goes; the runtime draws a frame then.
    @ObservationIgnored private(set) var statusExpiry: ContinuousClock.Instant?
    @ObservationIgnored var now: @MainActor () -> ContinuousClock.Instant = { ContinuousClock.now }
    static let statusLifetime: Duration = .seconds(5)

    init(ports: AppPorts) {
        self.ports = ports
    }

    // MARK: - Session

    /// Reads the stored session: the learner it names is signed in on this instance; if it
    /// cannot be read, nobody is, and signing in reports the real problem.
    func start() async {
        do {
            if let user = try await ports.sessions.restoreSession() { signedIn(as: user) } else { signedOut() }
        } catch .unreachable(let host) {
            // Remote mode with the server out of reach: the stored session is kept, and read
            // again when the server answers (`serverAnswersAgain`).
            signedOut(notice: "\(AppError.unreachable(host: host).userMessage) — you are signed in again as soon as it answers")
            restorePending = true
        } catch {
            signedOut()
        }
    }

    private func signedIn(as user: User) {
        scope?.close()
        loginScreen = nil
        helpOffset = nil
        notice = nil
        if let suspended = suspendedScope, suspended.learner == user.id {
            // Back where they were; their lists, and the screen in front as it appears, are
            // read again.
            scope = suspended
            suspended.readAgain()
        } else {
            suspendedScope?.close()
            scope = LearnerScope(
                user: user, ports: ports, session: session,
                report: { [weak self] message in self?.notice = message },
                onLoggedOut: { [weak self] in self?.signedOut() }
            )
        }
        suspendedScope = nil
        session.signedIn(user)
        syncVisibleScreen()
    }

    /// The server ended the session (remote mode): the sign-in screen says so, and the
    /// learner's screens wait, as they were, for them to sign in again.
    func sessionEnded() {
        guard session.phase == .signedIn, let scope else { return }
        scope.coordinator.currentScreen.disappear()
        suspendedScope = scope
        self.scope = nil
        helpOffset = nil
        notice = nil
        session.signedOut()
        loginScreen = SignInFeature(sessions: ports.sessions).makeLoginScreen(notice: AppError.sessionEnded.userMessage) { [weak self] user in
            self?.signedIn(as: user)
        }
        syncVisibleScreen()
    }

    /// The server answers again: the screen in front reads its data again, by itself.
    func serverAnswersAgain() {
        if restorePending, session.phase == .signedOut {
            restorePending = false
            Task { [weak self, ports] in
                guard let user = try? await ports.sessions.restoreSession(), let self, self.session.phase == .signedOut else { return }
                self.signedIn(as: user)
            }
            return
        }
        frontScreen?.appear()
    }

    /// Closes every screen of the learner, then shows the sign-in screen.
    private func signedOut(notice loginNotice: String? = nil) {
        restorePending = false
        scope?.close()
        suspendedScope?.close()
        suspendedScope = nil
        scope = nil
        helpOffset = nil
        notice = nil
        session.signedOut()
        loginScreen = SignInFeature(sessions: ports.sessions).makeLoginScreen(notice: loginNotice) { [weak self] user in
            self?.signedIn(as: user)
        }
        syncVisibleScreen()
    }

    /// The screen in front: the sign-in screen while nobody is signed in, else the current
    /// tab's; nothing until the stored session is read.
    var frontScreen: (any Screen)? {
        switch session.phase {
        case .unknown: nil
        case .signedOut: loginScreen
        case .signedIn: scope?.coordinator.currentScreen
        }
    }

    var coordinator: AppCoordinator? { scope?.coordinator }

    /// Lets a screen that just came to the front start loading, at once, so the keys after
    /// the one that brought it wait for it.
    func syncVisibleScreen() {
        guard let screen = frontScreen, visibleScreen !== screen else { return }
        visibleScreen = screen
        screen.appear()
    }

    // MARK: - Input queue

    /// Takes keys as they arrive. Ctrl-C quits at once; a resize applies at once; everything
    /// else joins the queue.
    func enqueue(_ events: [InputEvent]) {
        for event in events {
            switch event {
            case .key(.control("c")):
                queue.removeAll()
                onQuit()
                return
            case .resize:
                if let helpOffset { self.helpOffset = min(helpOffset, maximumHelpOffset) }
            default:
                queue.append(event)
            }
        }
        guard worker == nil, !queue.isEmpty else { return }
        worker = Task { @MainActor [weak self] in await self?.drainQueue() }
    }

    /// Waits until every key typed so far has been applied.
    func drain() async {
        await worker?.value
    }

    /// Waits until every key typed so far has been applied and the screen in front has
    /// finished what it started (for tests, which await instead of polling).
    func settle() async {
        while true {
            await drain()
            syncVisibleScreen()
            guard let screen = frontScreen else { return }
            await screen.settle()
            if worker == nil, frontScreen === screen { return }
        }
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

    /// Applies one event once the screen in front can take it: the help overlay first, then
    /// the screen, then the global keys it did not use.
    func apply(_ event: InputEvent) async -> Outcome {
        if isTooSmall {
            // Nothing can be seen: q still quits; other keys wait until the terminal grows.
            if event == .key(.character("q")) { return .quit }
            await ObservedCondition.wait { [weak self] in self?.isTooSmall != true }
        }
        if helpOffset != nil {
            handleHelp(event)
            return .keepRunning
        }
        guard let screen = await screenReady(for: event) else { return .keepRunning }
        if helpOffset == nil, case .mouse(.click(let x, 0)) = event, handleHeaderClick(x: x) { return .keepRunning }
        let result = await screen.handle(event)
        defer { syncVisibleScreen() }
        if screen.isCapturingText || result == .handled || frontScreen !== screen { return .keepRunning }
        return handleGlobal(event)
    }

    /// The screen in front once it accepts `event`, however long that takes; keys typed
    /// before the stored session is read wait for it too.
    private func screenReady(for event: InputEvent) async -> (any Screen)? {
        while !Task.isCancelled {
            syncVisibleScreen()
            guard let screen = frontScreen else {
                await ObservedCondition.wait { [weak self] in self?.frontScreen != nil }
                continue
            }
            if screen.accepts(event) { return screen }
            let ready: @MainActor () -> Bool = { [weak self] in self?.frontScreen !== screen || screen.accepts(event) }
            guard await wait(upTo: keyWaitLimit, until: ready) else {
                notice = .error(Self.droppedKeyMessage)
                return nil
            }
        }
        return nil
    }

    /// Waits for `condition`, at most `limit`; whether it holds.
    private func wait(upTo limit: Duration?, until condition: @escaping @MainActor () -> Bool) async -> Bool {
        guard let limit else {
            await ObservedCondition.wait(until: condition)
            return true
        }
        let waiter = Task { @MainActor in await ObservedCondition.wait(until: condition) }
        let timer = Task { @MainActor in
            try? await Task.sleep(for: limit)
            waiter.cancel()
        }
        await withTaskCancellationHandler {
            await waiter.value
        } onCancel: {
            waiter.cancel()
        }
        timer.cancel()
        return condition()
    }

    private var isTooSmall: Bool {
        terminalSize.width < Self.minimumSize.width || terminalSize.height < Self.minimumSize.height
    }

    private func handleHeaderClick(x: Int) -> Bool {
        guard let coordinator,
              let index = HeaderBar.tab(atColumn: x, tabs: AppTab.allCases.map(\.title), width: terminalSize.width, userName: session.displayName),
              let tab = AppTab(rawValue: index)
        else { return false }
        coordinator.switchTab(to: tab)
        syncVisibleScreen()
        return true
    }

    private func handleGlobal(_ event: InputEvent) -> Outcome {
        switch event {
        case .key(.character("?")):
            helpOffset = 0
        case .key(.character("q")):
            if coordinator?.pop() != true { return .quit }
        case .key(.escape):
            coordinator?.pop()
        case .key(.character(let character)) where ("1"..."4").contains(character):
            coordinator?.switchTab(to: AppTab(rawValue: Int(String(character))! - 1)!)
        case .key(.tab):
            if let coordinator { coordinator.switchTab(to: coordinator.tab.next) }
        case .key(.backTab):
            if let coordinator { coordinator.switchTab(to: coordinator.tab.previous) }
        default:
            break
        }
        return .keepRunning
    }

    // MARK: - Help overlay

    private var helpArea: Rect {
        Rect(x: 0, y: 1, width: terminalSize.width, height: terminalSize.height - 2)
    }

    private var maximumHelpOffset: Int {
        guard let screen = frontScreen else { return 0 }
        return HelpOverlay.maximumOffset(helpSections(for: screen), area: helpArea)
    }

    /// The current screen's keys and notes, then the keys that work everywhere.
    private func helpSections(for screen: any Screen) -> [HelpSection] {
        let title = coordinator.map { $0.isAtRoot ? $0.tab.title : "Course" } ?? "Sign in"
        var sections = [HelpSection(title, keys: screen.keys.map(\.helpHint))]
        sections += screen.notes
        if session.phase == .signedIn {
            sections.append(HelpSection("Everywhere", keys: GlobalKeys.all.map(\.helpHint)))
        }
        return sections
    }

    /// While the help shows, keys scroll or close it and reach nothing else.
    private func handleHelp(_ event: InputEvent) {
        guard let offset = helpOffset else { return }
        let page = max(1, helpArea.height - 2)
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
        case .key(.end), .key(.character("G")): wanted = maximumHelpOffset
        case .mouse(.wheelUp): wanted = offset - 3
        case .mouse(.wheelDown): wanted = offset + 3
        default: wanted = offset
        }
        helpOffset = min(max(0, wanted), maximumHelpOffset)
    }

    // MARK: - Drawing

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
        let signedIn = session.phase == .signedIn
        let outageText = outage?.message(at: now())
        // The mark in the header: the server is out of reach, what shows may be behind.
        let headerName = outageText == nil ? session.displayName : "⚠ " + (session.displayName ?? "offline")
        HeaderBar.draw(
            in: &canvas, row: 0, tabs: signedIn ? AppTab.allCases.map(\.title) : [],
            selectedTab: coordinator?.tab.rawValue ?? 0, userName: headerName
        )
        let area = Rect(x: 0, y: 1, width: size.width, height: size.height - 2)
        screen.draw(in: &canvas, frame: Frame(area: area, tick: tick))
        let help = KeyHint(GlobalKeys.help.key, GlobalKeys.help.label)
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
        var hints = screen.availableKeys.map(\.hint) + (screen.isCapturingText || !signedIn ? [] : globalHints)
        // A message never hides every key: the help key stays at the right, or, while `?`
        // would be typed into a field, the field's last key (`Esc clear`, `n no`).
        var status = visibleStatus(screen.statusMessage ?? notice)
        if let outageText {
            // The countdown needs a frame a second; the screen's own news still comes first.
            if status == nil { status = StatusMessage(outageText, kind: .error) }
            let tick = now() + .seconds(1)
            statusExpiry = min(statusExpiry ?? tick, tick)
        }
        let pinned = screen.isCapturingText ? (status == nil ? nil : hints.popLast()) : help
        Footer.draw(in: &canvas, row: size.height - 1, hints: hints, status: status, pinned: pinned)
        return screen.isAnimating
    }

    /// The status to draw: questions and progress (`Saving…`) stay while they apply; a
    /// success or an error goes after `statusLifetime`, or when the next one replaces it.
    private func visibleStatus(_ status: StatusMessage?) -> StatusMessage? {
        guard let status, status.kind != .info else {
            shownStatus = nil
            statusExpiry = nil
            return status
        }
        if shownStatus?.message != status { shownStatus = (status, now()) }
        let expiry = (shownStatus?.since ?? now()) + Self.statusLifetime
        guard now() < expiry else {
            statusExpiry = nil
            return nil
        }
        statusExpiry = expiry
        return status
    }

    private var globalHints: [KeyHint] {
        guard let coordinator else { return [] }
        return coordinator.isAtRoot
            ? [GlobalKeys.tabs.hint, GlobalKeys.quit.hint]
            : [GlobalKeys.back.hint, GlobalKeys.tabs.hint]
    }
}
