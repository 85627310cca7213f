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
    /// The outcome of the last save, whichever screen made it, or why the last key could not
    /// act: shown when the screen in front has nothing of its own to say.
    private(set) var notice: StatusMessage?
    /// How many messages were posted: each is numbered, so the same words again are new.
    @ObservationIgnored private var postings = 0
    /// The notice was posted while the screen in front showed progress (`Saving…`): it is
    /// newer, and shows over it for its moment.
    @ObservationIgnored private var noticeOverProgress = false
    /// Remote mode: the server's outages, shown in the header and footer while they last.
    var outage: OutageMonitor?
    /// Remote mode: the longest a key waits for the screen in front to take it (a screen
    /// waiting on a server that does not answer); past it the key is dropped and the learner
    /// told. Nil: keys wait as long as the screen takes, which the local store bounds.
    @ObservationIgnored var keyWaitLimit: Duration?
    /// The terminal's size, for the too-small notice and the overlay's page.
    var terminalSize = Size(width: 80, height: 24)
    /// Called once when a key asks to quit.
    @ObservationIgnored var onQuit: @MainActor () -> Void = {}
    @ObservationIgnored let clock: ShellClock

    @ObservationIgnored private let chrome: FrameChrome
    /// Set at the end of `init`: it applies keys through this shell.
    @ObservationIgnored private var input: InputQueue?
    /// Held, not just identified: after a sign-out a new screen could reuse a freed address.
    @ObservationIgnored private var visibleScreen: (any Screen)?

    /// How screens lay themselves out (the config file's `wide_layout_columns`).
    let layout: LayoutSettings
    /// The keys the config file binds to actions (`[keys]`), in place of their defaults.
    var bindings = KeyBindings.none
    /// The words of the language in force, for every text drawn.
    var texts = Texts.english
    /// The accessible mode (`--accessible`): the cursor follows the focus, words for marks,
    /// no box drawing or animation.
    var accessible = false
    /// The words the accessible mode's rows show for the marks `★` and `✓`.
    static let markWords = ["★": "favourite", "✓": "enrolled"]
    /// The postings there were when the last key came: a notice after it is news of that key.
    @ObservationIgnored private var postingsAtLastKey = 0
    /// The command palette, while it shows.
    private(set) var palette: CommandPalette?
    /// Where the data is, as the header's status names it: the data directory, or the
    /// server's `host:port`.
    private let store: StoreLabel

    enum StoreLabel {
        case local(path: String)
        case server(host: String)
    }

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
            self?.notice = nil
            self?.syncVisibleScreen()
        }
    }

    // MARK: - Session

    var session: SessionState { flow.session }
    var coordinator: AppCoordinator? { flow.scope?.coordinator }
    var frontScreen: (any Screen)? { flow.frontScreen }
    var helpOffset: Int? { help.offset }
    /// When the status on screen goes; the runtime draws a frame then.
    var statusExpiry: Duration? { chrome.statusExpiry }

    /// Reads the stored session; see `SessionFlow.start`.
    func start() async {
        await flow.start()
    }

    /// The server ended the session (remote mode); see `SessionFlow.sessionEnded`.
    func sessionEnded() {
        flow.sessionEnded()
    }

    /// The server answers again; see `SessionFlow.serverAnswersAgain`.
    func serverAnswersAgain() {
        flow.serverAnswersAgain()
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
                help.clamp(to: maximumHelpOffset)
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
        postingsAtLastKey = postings
        if isTooSmall {
            // Nothing can be seen: q still quits; other keys wait until the terminal grows.
            if event == .key(.character("q")) { return .quit }
            await ObservedCondition.wait { [weak self] in self?.isTooSmall != true }
        }
        if help.isOpen {
            help.handle(event, page: max(1, helpArea.height - 2), maximum: maximumHelpOffset)
            return .keepRunning
        }
        guard let screen = await screenReady(for: event) else { return .keepRunning }
        if palette != nil { return await handlePalette(event, on: screen) }
        if !help.isOpen, case .mouse(.click(let x, 0)) = event, handleHeaderClick(x: x) { return .keepRunning }
        guard let event = rebinding ? rebound(event, on: screen) : event else { return .keepRunning }
        // A declared key that cannot act now says why, and does nothing else.
        if let reason = screen.refusal(of: event) {
            post(.error(reason))
            return .keepRunning
        }
        let result = await screen.handle(event)
        defer { syncVisibleScreen() }
        if screen.isCapturingText || result == .handled || frontScreen !== screen { return .keepRunning }
        return handleGlobal(event)
    }

    /// The palette's keys: typed into its field, moving its selection, or running the
    /// selected action as its key pressed (its default: the bindings are not applied again).
    private func handlePalette(_ event: InputEvent, on screen: any Screen) async -> Outcome {
        guard case .key(let key) = event, var shown = palette else { return .keepRunning }
        let items = paletteItems(for: screen)
        switch shown.handle(key, items: items) {
        case .stay:
            palette = shown
            return .keepRunning
        case .close:
            palette = nil
            return .keepRunning
        case .run(let item):
            palette = nil
            return await apply(.key(item.key), rebinding: false)
        }
    }

    /// Every action of the screen and the global ones, with the keys in force: those that act
    /// now, then those that cannot (with why), then the global ones.
    func paletteItems(for screen: any Screen) -> [PaletteItem] {
        let bindings = bindings(on: screen)
        func items(_ declarations: [KeyDeclaration], unavailable: (KeyDeclaration) -> String? = { _ in nil }) -> [PaletteItem] {
            declarations.flatMap { declaration in
                declaration.actions.map { action in
                    // One of several (↑ of ↑↓): its own part of the name says which.
                    let part = String(action.name.split(separator: ".").last ?? "").split(separator: "_").joined(separator: " ")
                    let title =
                        declaration.actions.count > 1
                        ? texts(declaration.label) + ": " + texts(LocalizedText(stringLiteral: part))
                        : texts(declaration.help)
                    return PaletteItem(
                        keys: bindings.keys(of: action).map(\.displayName).joined(separator: "/"),
                        title: title.prefix(1).uppercased() + title.dropFirst(), name: action.name, key: action.key,
                        unavailable: unavailable(declaration))
                }
            }
        }
        var all = items(screen.keys.filter { screen.availability(of: $0) == .available })
        // What cannot act now is listed too, after, with the reason: the palette is where
        // every action can be found.
        let reasons = screen.keys.compactMap { declaration -> (KeyDeclaration, String)? in
            if case .unavailable(let reason) = screen.availability(of: declaration) { return (declaration, texts(reason)) }
            return nil
        }
        all += items(reasons.map(\.0)) { declaration in reasons.first { $0.0 == declaration }?.1 }
        guard session.phase == .signedIn, !screen.isCapturingText, let coordinator else { return all }
        let global = coordinator.isAtRoot ? GlobalKeys.all.filter { $0 != GlobalKeys.back } : GlobalKeys.all
        all += items(global.filter { $0 != GlobalKeys.palette })
        all += AppTab.allCases.map { tab in
            PaletteItem(
                keys: "\(tab.rawValue + 1)", title: texts("Go to \(tab.title)"), name: "tab.\(tab.rawValue + 1)",
                key: .character(Character("\(tab.rawValue + 1)")))
        }
        return all
    }

    /// `event` as the config file's bindings make it: a bound key as the default key of its
    /// action, a default key bound elsewhere as nothing (`nil`). Text typed into a field is
    /// text, whatever the bindings.
    private func rebound(_ event: InputEvent, on screen: any Screen) -> InputEvent? {
        guard case .key(let key) = event, !bindings.isEmpty else { return event }
        if screen.isCapturingText, case .character = key { return event }
        let own = screen.keys.filter { screen.availability(of: $0) != .dormant }
        let global = screen.isCapturingText ? [] : GlobalKeys.all
        var bindings = bindings(on: screen)
        // A field or a question has every key: a preset's arrow never leaves it.
        if screen.isCapturingText { bindings.extra = [:] }
        return bindings.translate(key, among: own + global).map(InputEvent.key)
    }

    /// The bindings on `screen`: a preset's key gives way to a key the screen or the global
    /// keys declare.
    private func bindings(on screen: any Screen) -> KeyBindings {
        bindings.on(screen.keys + GlobalKeys.all)
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
                post(.error(Self.droppedKeyMessage))
                return nil
            }
        }
        return nil
    }

    /// Waits for `condition`, at most `limit` on the shell's clock; whether it holds.
    private func wait(upTo limit: Duration?, until condition: @escaping @MainActor () -> Bool) async -> Bool {
        guard let limit else {
            await ObservedCondition.wait(until: condition)
            return true
        }
        let waiter = Task { @MainActor in await ObservedCondition.wait(until: condition) }
        let timer = Task { [clock] in
            try? await clock.sleep(for: limit)
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

    /// Tells the learner something from outside the screens (the config file reloaded).
    func report(_ message: StatusMessage) {
        post(message)
    }

    /// Shows `message` in the footer as a new moment, whatever was shown before.
    private func post(_ message: StatusMessage) {
        postings += 1
        noticeOverProgress = frontScreen?.statusMessage?.isProgress ?? false
        notice = message.posted(postings)
    }

    private var isTooSmall: Bool { FrameChrome.isTooSmall(terminalSize) }

    private func handleHeaderClick(x: Int) -> Bool {
        guard let coordinator,
            let index = HeaderBar.tab(
                atColumn: x, tabs: AppTab.allCases.map { texts($0.title) }, shortTabs: AppTab.allCases.map { texts($0.shortTitle) },
                width: terminalSize.width,
                userName: session.displayName),
            let tab = AppTab(rawValue: index)
        else { return false }
        coordinator.switchTab(to: tab)
        syncVisibleScreen()
        return true
    }

    private func handleGlobal(_ event: InputEvent) -> Outcome {
        switch event {
        case .key(.character("?")):
            help.open()
        case .key(.character(":")), .key(.control("p")):
            palette = CommandPalette()
        case .key(.character("q")):
            if coordinator?.pop() != true { return .quit }
        case .key(.escape):
            coordinator?.pop()
        case .key(.character(let character)):
            if let tab = AppTab(numberKey: character) { coordinator?.switchTab(to: tab) }
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

    private var helpArea: Rect { FrameChrome.screenArea(terminalSize) }

    private var maximumHelpOffset: Int {
        guard let screen = frontScreen else { return 0 }
        return HelpOverlay.maximumOffset(helpSections(for: screen), area: helpArea, texts: texts)
    }

    /// The current screen's keys and notes, then the keys that work everywhere.
    private func helpSections(for screen: any Screen) -> [HelpSection] {
        let title: LocalizedText = coordinator.map { $0.isAtRoot ? $0.tab.title : "Course" } ?? "Sign in"
        let bindings = bindings(on: screen)
        var sections = [HelpSection(title, keys: screen.keys.map(bindings.helpHint))]
        sections += screen.notes
        if session.phase == .signedIn {
            sections.append(HelpSection("Everywhere", keys: GlobalKeys.all.map(bindings.helpHint)))
        }
        guard accessible else { return sections }
        // The accessible mode's rows spell their marks: so does the help that explains them.
        return sections.map { section in
            HelpSection(section.title, keys: section.keys.map { KeyHint(Self.markWords[$0.key] ?? $0.key, $0.label) })
        }
    }

    // MARK: - Drawing

    /// Draws the whole frame. Returns whether something on it animates.
    func draw<C: Canvas>(in canvas: inout C, tick: Int) -> Bool {
        guard accessible else { return drawFrame(in: &canvas, tick: tick) }
        var plain = AccessibleCanvas(canvas)
        let animates = drawFrame(in: &plain, tick: tick)
        canvas = plain.base
        return animates
    }

    private func drawFrame<C: Canvas>(in canvas: inout C, tick: Int) -> Bool {
        guard !FrameChrome.isTooSmall(canvas.size) else {
            FrameChrome.drawTooSmall(in: &canvas, texts: texts)
            return false
        }
        guard let screen = frontScreen else { return false }
        let content = FrameChrome.Content(
            screen: screen,
            coordinator: coordinator,
            isSignedIn: session.phase == .signedIn,
            userName: session.displayName,
            help: help.offset.map { ($0, helpSections(for: screen)) },
            notice: notice,
            noticeOverProgress: noticeOverProgress,
            outage: outage?.message(at: clock.now),
            context: statusContext(),
            bindings: bindings(on: screen),
            palette: palette.map { ($0, paletteItems(for: screen)) },
            texts: texts,
            noticeIsNews: (notice?.posting ?? 0) > postingsAtLastKey
        )
        return chrome.draw(content, in: &canvas, tick: tick)
    }

    /// The store (with `●` connected or `⚠` reconnecting for a server), then the learner's
    /// counts as far as they are known.
    private func statusContext() -> [String] {
        var parts: [String] = []
        switch store {
        case .local(let path): if !path.isEmpty { parts.append(path) }
        case .server(let host): parts.append(host + (outage?.message(at: clock.now) == nil ? " ●" : " ⚠"))
        }
        return parts + (flow.scope?.counts ?? []).map { texts($0) }
    }
}
