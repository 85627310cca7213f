import Dispatch
import Foundation
import SharedKernel
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Draws an import's progress on standard error, five times a second, when standard error is
/// a terminal: each step that ended on a line of its own, the running one redrawn in place.
/// An import done within `after` draws nothing, so a small file's output is its summary alone;
/// neither does one whose standard error is a file or a pipe (a script's log stays clean).
/// `accessible`: no spinner, bar or line drawn again (a screen reader would read each); each
/// step's line once it ends, begun with a word instead of a mark.
public final class ImportProgressDisplay: Sendable {
    public let progress: ImportProgress
    private let texts: Texts
    private let started = ContinuousClock.now
    private let after: Duration
    private let accessible: Bool
    private let queue = DispatchQueue(label: "edugo.import-progress")
    private let timer = Mutex<(any DispatchSourceTimer)?>(nil)
    private let drawing = Mutex<(frame: Int, printed: Int, shown: Bool)>((0, 0, false))

    /// A display for this process's standard error, or nil when it is not a terminal.
    /// `EDUGO_IMPORT_PROGRESS_AFTER_MS` moves `after` (the journeys draw from the start).
    public static func forStandardError(
        texts: Texts, accessible: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ImportProgressDisplay? {
        guard isatty(STDERR_FILENO) == 1, environment["TERM"] != "dumb" else { return nil }
        let after = environment["EDUGO_IMPORT_PROGRESS_AFTER_MS"].flatMap(Int.init).map { Duration.milliseconds(max($0, 0)) }
        return ImportProgressDisplay(texts: texts, after: after ?? .milliseconds(500), accessible: accessible)
    }

    init(texts: Texts, after: Duration, accessible: Bool) {
        self.progress = ImportProgress()
        self.texts = texts
        self.after = after
        self.accessible = accessible
    }

    public func start() {
        timer.withLock { timer in
            let ticks = DispatchSource.makeTimerSource(queue: queue)
            ticks.schedule(deadline: .now(), repeating: .milliseconds(200))
            ticks.setEventHandler { [self] in draw(final: false) }
            ticks.resume()
            timer = ticks
        }
    }

    /// The import is over: the last steps' lines, the running line cleared. Call before the
    /// summary or the reason is printed. A step that did not get through is not ticked off.
    public func stop(succeeded: Bool = true) {
        if succeeded { progress.end() }
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        // On the drawing queue: after any draw under way.
        queue.sync { draw(final: true) }
    }

    private func draw(final: Bool) {
        // A job put in the background draws nothing (it would write over the shell's line);
        // what it missed comes if it is brought back in front before it ends.
        guard tcgetpgrp(STDERR_FILENO) == getpgrp() else { return }
        let now = ContinuousClock.now
        let snapshot = progress.snapshot
        let lines = drawing.withLock { state -> String? in
            if !state.shown {
                guard now - started >= after else { return nil }
                state.shown = true
            }
            var out = accessible ? "" : "\r\u{1B}[K"
            for finished in snapshot.finished.dropFirst(state.printed) {
                out += ImportProgressLine.finished(finished, texts: texts, accessible: accessible) + "\n"
            }
            state.printed = snapshot.finished.count
            if !final, !accessible {
                state.frame += 1
                let width = Self.columns() - 1
                out += ImportProgressLine.running(snapshot, now: now, frame: state.frame, width: width, texts: texts) ?? ""
            }
            return out
        }
        if let lines { Self.write(lines) }
    }

    /// Straight to the descriptor, every failure ignored: a terminal gone (hung up) must not
    /// stop an import that would commit.
    private static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Standard error's width (the last column left free: some terminals wrap on it).
    private static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
