import CNcurses
import Foundation
import Presentation
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// The only owner of ncurses: sets the terminal up, reads input, draws frames and puts the
/// terminal back as it was. Every call happens on the main actor, because ncurses is not
/// reentrant.
@MainActor
public final class NcursesTerminal {
    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    /// Whether marked links become OSC 8 hyperlinks (`TerminalOptions.hyperlinks`).
    private let hyperlinks: Bool
    /// Whether frames are bracketed by marks (`TerminalOptions.frameMarks`).
    private let frameMarks: Bool
    private var palette: TerminalPalette
    /// Whether the terminal shows colours at all (`NO_COLOR` unset, and it has them).
    private let useColor: Bool
    private var decoder = InputDecoder()
    private var isActive = true
    private var cursorVisible = false
    /// How to put the terminal back from a signal watchdog, without ncurses.
    let rescue: TerminalRescue
    /// How long to wait for the rest of an escape sequence before deciding it was a lone Esc.
    let escapeDelay: Duration

    /// Checks that stdin and stdout are a terminal of a known type, then enters curses mode.
    public init(options: TerminalOptions) throws(TerminalError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notInteractive }
        guard let type = options.terminalType, !type.isEmpty, type != "dumb" else {
            throw .unsupportedTerminal(options.terminalType ?? "")
        }
        Self.useUTF8Locale()
        var originalModes = termios()
        tcgetattr(STDIN_FILENO, &originalModes)
        escapeDelay = .milliseconds(options.escapeDelayMilliseconds ?? 25)

        // newterm, unlike initscr, reports an unknown terminal type instead of exiting.
        guard let input = fdopen(STDIN_FILENO, "r"), let output = fdopen(STDOUT_FILENO, "w"),
            let screen = newterm(type, output, input)
        else {
            throw .unsupportedTerminal(type)
        }
        set_term(screen)
        guard let window = edugo_stdscr(), tigetstr("cup").map({ Int(bitPattern: $0) > 0 }) ?? false else {
            endwin()
            delscreen(screen)
            throw .unsupportedTerminal(type)
        }
        self.screen = screen
        self.window = window
        hyperlinks = options.hyperlinks
        frameMarks = options.frameMarks

        raw()  // Ctrl-Z, Ctrl-S and Ctrl-Q arrive as keys
        edugo_enable_interrupt_key(STDIN_FILENO)  // …and Ctrl-C as SIGINT, even while busy
        def_prog_mode()  // so ncurses keeps these modes whenever it sets them again
        noecho()
        nonl()
        keypad(window, true)
        // The app reads stdin itself (`readInput`): ncurses must never look at it.
        typeahead(-1)
        curs_set(0)
        mouseinterval(0)
        mousemask(edugo_button1_pressed() | edugo_button4_pressed() | edugo_button5_pressed(), nil)

        let useColor = !options.noColor && has_colors() && start_color() == OK
        if useColor { use_default_colors() }
        self.useColor = useColor
        palette = TerminalPalette(theme: options.theme, useColor: useColor, colors: Int(edugo_colors()))
        // ncurses 6.4 flushes after every cursor move until it has once come back from endwin
        // (`_endwin` stays `ewInitial` after newterm), so a frame left in one write per row it
        // moved to, and a terminal could show half of one. Leaving and coming back once, before
        // anything is drawn, lets it send a frame in as few writes as its buffer allows.
        endwin()
        doupdate()
        rescue = TerminalRescue(modes: originalModes, sequence: TerminalRescue.sequence())
        rescue.armFatalSignalGuard()
    }

    /// Draws with `theme` from the next frame on (a config file edited while the app runs):
    /// the colour pairs are set again, and the whole screen is sent, not only what changed.
    public func apply(theme: Theme) {
        guard isActive else { return }
        palette = TerminalPalette(theme: theme, useColor: useColor, colors: Int(edugo_colors()))
        clearok(window, true)
    }

    /// The current size in cells.
    public var size: Size {
        Size(width: Int(edugo_cols()), height: Int(edugo_lines()))
    }

    /// Draws one frame: `draw` paints the whole screen into a cleared canvas, and ncurses
    /// sends only what differs from the previous frame.
    public func render(_ draw: (inout NcursesCanvas) -> Void) {
        guard isActive else { return }
        werase(window)
        var canvas = NcursesCanvas(size: size, window: window, palette: palette)
        draw(&canvas)
        if frameMarks { edugo_mark_frame(0) }
        if let cursor = canvas.cursor {
            if !cursorVisible { curs_set(1) }
            wmove(window, Int32(cursor.y), Int32(cursor.x))
        } else if cursorVisible {
            curs_set(0)
        }
        cursorVisible = canvas.cursor != nil
        wnoutrefresh(window)
        doupdate()
        if hyperlinks, !canvas.links.isEmpty { writeLinks(canvas.links) }
        if frameMarks { edugo_mark_frame(1) }
    }

    /// Makes the marked cells of the frame just sent OSC 8 hyperlinks (see `edugo_write_link`).
    private func writeLinks(_ links: [LinkMark]) {
        for link in links {
            guard let address = Hyperlinks.address(link.address) else { continue }
            edugo_write_link(window, Int32(link.y), Int32(link.x), Int32(link.width), address)
        }
        // ncurses flushed its own stream when the frame was sent; these follow on stdout's.
        edugo_flush_links()
    }

    /// What one read of stdin gave.
    enum InputRead: Equatable {
        case events([InputEvent])
        /// The terminal is gone (end of file or an error other than an interruption).
        case closed
    }

    /// Reads what is waiting on stdin (call when it is readable, so this does not block) and
    /// decodes it. An unfinished sequence stays pending: call `flushInput` if nothing follows
    /// within `escapeDelay`.
    func readInput() -> InputRead {
        guard isActive else { return .events([]) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return .events([]) }
        guard count > 0 else { return .closed }
        return .events(decoder.feed(buffer[..<count]))
    }

    /// True when bytes are held back waiting for the rest of a sequence.
    var hasPendingInput: Bool { decoder.hasPending }

    /// Nothing followed the pending bytes: a lone Esc is the Escape key, an unfinished
    /// sequence is dropped.
    func flushInput() -> [InputEvent] {
        decoder.flush()
    }

    /// Applies the size the kernel reports, after SIGWINCH. Returns whether it changed.
    @discardableResult
    func syncSize() -> Bool {
        guard isActive else { return false }
        var rows: Int32 = 0
        var columns: Int32 = 0
        guard edugo_window_size(STDOUT_FILENO, &rows, &columns) == 0, rows > 0, columns > 0 else { return false }
        guard rows != edugo_lines() || columns != edugo_cols() else { return false }
        resizeterm(rows, columns)
        return true
    }

    /// Leaves curses mode: cursor, echo and the normal screen come back. Safe to call twice.
    public func restore() {
        guard isActive else { return }
        isActive = false
        rescue.disarmFatalSignalGuard()
        curs_set(1)
        endwin()
        delscreen(screen)
    }

    /// ncursesw needs a UTF-8 locale for wide characters; fall back to C.UTF-8 when the
    /// environment names none.
    private static func useUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = nl_langinfo(nl_item(CODESET)).map { String(cString: $0) } ?? ""
        if codeset.uppercased().replacingOccurrences(of: "-", with: "") != "UTF8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }
}
