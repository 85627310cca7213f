import Observation
import Presentation
import SharedKernel
import TerminalUI

/// The shell: routes each key of the one input queue to what is in front (the help overlay,
/// the screen, then the global keys), and puts the frame together. Who is signed in is
/// `SessionFlow`'s, the order of keys `InputQueue`'s, the frame's look `FrameChrome`'s.
///
/// Keys are applied in the order typed, each to what the screen shows when it takes effect:
/// a key waits while the screen in front cannot take it (its search, page or the screen
/// itself is loading), and the keys after it wait behind it. Only Ctrl-C jumps the queue.
@Observable
@MainActor
final class ShellController {
    typealias Outcome = InputQueue.Outcome

    static let droppedKeyMessage: LocalizedText = "A key was dropped: the server did not answer in time"

    let flow: SessionFlow
    let help = HelpOverlayState()
    /// What the footer says when the screen in front has nothing of its own to say.
    let notices = NoticeBoard()
    /// Remote mode: the server's outages, shown in the header and footer while they last.
    var outage: OutageMonitor?
    /// Remote mode with a replica: the writes waiting for the server.
    var sync: SyncStatus?
    /// Remote mode: the longest a key waits for the screen in front to take it (a screen
    /// waiting on a server that does not answer); past it the key is dropped and the learner
    /// told. Nil: keys wait as long as the screen takes, which the local store bounds.
    @ObservationIgnored var keyWaitLimit: Duration?
    /// The terminal's size, for the too-small notice and the overlay's page.
    var terminalSize = Size(width: 80, height: 24)
    /// Called once when a key asks to quit.
    @ObservationIgnored var onQuit: @MainActor () -> Void = {}
    /// Called once, after the first frame drawn for a signed-in learner with nothing on it
    /// waiting: no spinner, and the screen in front takes keys (its data is there, not merely
    /// not asked for yet). Remote mode lets the start's work on the server go then.
    @ObservationIgnored var onFirstSettledFrame: (@MainActor () -> Void)?
    @ObservationIgnored let clock: ShellClock

    @ObservationIgnored private let chrome: FrameChrome
    /// Set at the end of `init`: it applies keys through this shell.
    @ObservationIgnored private var input: InputQueue?
    /// Held, not just identified: after a sign-out a new screen could reuse a freed address.
    @ObservationIgnored private var visibleScreen: (any Screen)?

    /// How screens lay themselves out (the config file's `wide_layout_columns`).
    let layout: LayoutSettings
    /// The key bindings, language and accessible mode in force (the config file's).
    var look = ShellLook()
    private var texts: Texts { look.texts }
    /// The command palette, while it shows.
    private(set) var palette: CommandPalette?
    /// Where the data is, as the header's status names it: the data directory, or the
    /// server's `host:port`.
    private let store: StoreLabel

    init(
        ports: AppPorts, clock: ShellClock = ShellClock(), layout: LayoutSettings = LayoutSettings(), store: StoreLabel? = nil,
        signInEmail: String? = nil
    ) {
        self.clock = clock
        self.layout = layout
        self.store = store ?? ports.server.map { .server(host: $0) } ?? .local(path: "")
        flow = SessionFlow(ports: ports, layout: layout, clock: clock, signInEmail: signInEmail)
        chrome = FrameChrome(clock: self.clock)
        input = InputQueue(
            apply: { [weak self] event in await self?.apply(event) ?? .keepRunning },
            onQuit: { [weak self] in self?.onQuit() }
        )
        flow.report = { [weak self] message in self?.post(message) }
        flow.onSwitched = { [weak self] in
            self?.help.close()
            self?.notices.clear()
            self?.syncVisibleScreen()
        }
    }

    // MARK: - Session

    /// The last refusal posted (why a key did nothing), while it may still show.
    private var refusal: StatusMessage?

    var session: SessionState { flow.session }
    var coordinator: AppCoordinator? { flow.scope?.coordinator }
    var frontScreen: (any Screen)? { flow.frontScreen }
    /// When the status on screen goes; the runtime draws a frame then.
    var statusExpiry: Duration? { chrome.statusExpiry }

    /// Reads the stored session; see `SessionFlow.start`.
    func start() async {
        await flow.start()
    }

    /// Lets a screen that just came to the front start loading, at once, so the keys after
    /// the one that brought it wait for it.
    func syncVisibleScreen() {
        guard let screen = frontScreen, visibleScreen !== screen else { return }
        visibleScreen = screen
        screen.appear()
    }

    /// Stops every task of the shell and of every learner: the app is ending.
    func close() {
        input?.cancel()
        flow.close()
    }

    // MARK: - Input

    /// Takes keys as they arrive. Ctrl-C quits at once; a resize applies at once; everything
    /// else joins the queue.
    func enqueue(_ events: [InputEvent]) {
        var queued: [InputEvent] = []
        for event in events {
            switch event {
            case .key(.control("c")):
                input?.clear()
                onQuit()
                return
            case .resize:
                if let screen = frontScreen { help.clamp(actions(on: screen).helpSections(), in: terminalSize, texts: texts) }
            default:
                queued.append(event)
            }
        }
        input?.append(queued)
    }

    /// Waits until every key typed so far has been applied.
    func drain() async {
        await input?.drain()
    }

    /// Waits until every key typed so far has been applied and what the shell, the learner
    /// and the screen in front started has finished (for tests, which await instead of polling).
    func settle() async {
        while true {
            await drain()
            await flow.settle()
            syncVisibleScreen()
            guard let screen = frontScreen else { return }
            await screen.settle()
            // The screen's work may have started the learner's (the lists behind a first page).
            if input?.isBusy != true, frontScreen === screen, !flow.isBusy { return }
        }
    }

    /// Applies one event once the screen in front can take it: the help overlay first, then
    /// the screen, then the global keys it did not use.
    func apply(_ event: InputEvent, rebinding: Bool = true) async -> Outcome {
        if case .key(.alt(let digit)) = event, help.isOpen || palette != nil || frontScreen?.takesDigits != true {
            // ESC and a digit read at once where the digits are not taken: the two keys, typed
            // fast or over a slow link (Alt-digit means more only where digits pick answers).
            let outcome = await apply(.key(.escape), rebinding: rebinding)
            guard outcome == .keepRunning else { return outcome }
            return await apply(.char(digit), rebinding: rebinding)
        }
        notices.keyArrived()
        if isTooSmall {
            // Nothing can be seen: q still quits; other keys wait until the terminal grows.
            if event == .key(.character("q")) { return .quit }
            await ObservedCondition.wait { [weak self] in self?.isTooSmall != true }
        }
        if help.isOpen {
            if let screen = frontScreen { help.handle(event, showing: actions(on: screen).helpSections(), in: terminalSize, texts: texts) }
            return .keepRunning
        }
        let waited = await KeyWait(clock: clock, limit: keyWaitLimit).screen(
            for: event, front: { [weak self] in self?.frontScreen }, sync: { [weak self] in self?.syncVisibleScreen() })
        guard case .ready(let screen) = waited else {
            if case .dropped = waited { post(.error(Self.droppedKeyMessage)) }
            return .keepRunning
        }
        if palette != nil { return await handlePalette(event, on: screen) }
        if case .mouse(.click(let x, 0)) = event,
            coordinator?.switchTab(
                atHeaderColumn: x, width: terminalSize.width, userName: session.displayName,
                place: store.status(isReconnecting: outage != nil, words: statusWords),
                mark: FrameChrome.headerMark(settingsRefused: settingsProblem != nil, waitingWrites: waitingWrites, texts: texts),
                texts: texts) == true
        {
            syncVisibleScreen()
            return .keepRunning
        }
        guard let event = rebinding ? actions(on: screen).rebound(event) : event else { return .keepRunning }
        // A declared key that cannot act now says why, and does nothing else.
        if let reason = screen.refusal(of: event) {
            post(.error(reason))
            refusal = notices.notice
            return .keepRunning
        }
        let result = await screen.handle(event)
        // Why a key did nothing goes once another key acts (`Pick an answer first`, then `2`).
        if result == .handled, let shown = refusal, notices.notice == shown { notices.clear() }
        defer { syncVisibleScreen() }
        if screen.isCapturingText || result == .handled || frontScreen !== screen { return .keepRunning }
        return handleGlobal(event)
    }

    /// The palette's keys: typed into its field, moving its selection, or running the
    /// selected action as its key pressed (its default: the bindings are not applied again).
    private func handlePalette(_ event: InputEvent, on screen: any Screen) async -> Outcome {
        guard case .key(let key) = event, var shown = palette else { return .keepRunning }
        let outcome = shown.handle(key, items: actions(on: screen).paletteItems())
        palette = outcome == .stay ? shown : nil
        guard case .run(let item) = outcome else { return .keepRunning }
        return await apply(.key(item.key), rebinding: false)
    }

    /// What `screen` and the global keys let the learner do, with the keys in force.
    func actions(on screen: any Screen) -> ScreenActions {
        let signedIn = session.phase == .signedIn
        return ScreenActions(
            screen: screen, configured: look.bindings, texts: texts, isAtRoot: signedIn ? coordinator?.isAtRoot : nil,
            title: coordinator.map { $0.isAtRoot ? $0.tab.title : "Course" } ?? "Sign in", accessible: look.accessible,
            settingsProblem: settingsProblem)
    }

    /// Why the config file was last refused while the app runs, until it is applied again:
    /// the header keeps a mark, and the help (and the palette's "Show settings problem")
    /// give the whole reason.
    var settingsProblem: LocalizedText?

    /// Tells the learner something from outside the screens (the config file reloaded).
    func report(_ message: StatusMessage) {
        post(message)
    }

    /// Shows `message` in the footer as a new moment, whatever was shown before.
    private func post(_ message: StatusMessage) {
        notices.post(message, overProgress: frontScreen?.statusMessage?.isProgress ?? false)
    }

    private var isTooSmall: Bool { FrameChrome.isTooSmall(terminalSize) }

    private func handleGlobal(_ event: InputEvent) -> Outcome {
        switch event {
        case .key(.character("?")):
            help.open()
        case .key(.character(":")), .key(.control("p")):
            palette = CommandPalette()
        default:
            // Before sign-in there is nowhere to go back to: q quits.
            let digitsSwitchTabs = !(frontScreen?.takesDigits ?? false)
            if coordinator.map({ $0.navigate(by: event, digitsSwitchTabs: digitsSwitchTabs) }) ?? (event == .key(.character("q"))) {
                return .quit
            }
        }
        return .keepRunning
    }

    // MARK: - Drawing

    /// A frame was drawn; `animating`, something on it waits (`draw`'s answer).
    func frameDrawn(animating: Bool) {
        guard !animating, flow.session.phase == .signedIn, let settled = onFirstSettledFrame,
            visibleScreen?.accepts(.key(.down)) == true
        else { return }
        onFirstSettledFrame = nil
        settled()
    }

    /// Draws the whole frame. Returns whether something on it animates.
    func draw<C: Canvas>(in canvas: inout C, tick: Int) -> Bool {
        chrome.draw(in: &canvas, tick: tick, accessible: look.accessible, texts: texts) { frameContent() }
    }

    /// The header's count of writes waiting for the server, in the words the width allows.
    private var waitingWrites: String? {
        sync?.headerText(accessible: look.accessible, wide: terminalSize.width >= HeaderBar.placeWidth).map { texts($0) }
    }

    /// The server's state in words, in the accessible mode.
    private var statusWords: (online: String, offline: String)? {
        look.accessible ? (texts("online"), texts("offline")) : nil
    }

    /// What the frame shows: the screen in front, with the shell's notice, overlays and status.
    private func frameContent() -> FrameChrome.Content? {
        guard let screen = frontScreen else { return nil }
        let actions = actions(on: screen)
        let (outage, shortOutage) = (outage?.message(at: clock.now), outage?.message(at: clock.now, short: true))
        return FrameChrome.Content(
            screen: screen, coordinator: coordinator, isSignedIn: session.phase == .signedIn, userName: session.displayName,
            help: help.offset.map { ($0, actions.helpSections()) }, notice: notices.notice,
            noticeOverProgress: notices.isOverProgress, outage: outage, shortOutage: shortOutage,
            place: store.status(isReconnecting: outage != nil, words: statusWords), placeIsServer: store.isServer,
            context: (flow.scope?.counts ?? []).map { texts($0) },
            bindings: actions.bindings, palette: palette.map { ($0, actions.paletteItems()) }, texts: texts,
            noticeIsNews: notices.isNews, settingsRefused: settingsProblem != nil,
            waitingWrites: waitingWrites)
    }
}
