import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// The real `tui` binary in a real terminal: a private tmux server, driven only with keys and
/// read only as screen text, like a person would.
final class TmuxSession {
    let dataDirectory: TemporaryDirectory
    /// A directory passed in outlives the session (for restarts); one made here does not.
    private let ownsDataDirectory: Bool
    private var serverPID: Int32?
    private var panePID: Int32?
    private let socket = "edugo-e2e-\(UUID().uuidString.prefix(8))"
    private let target = "e2e"

    /// Starts `tui ARGUMENTS` in a pane of `width`×`height`. The pane reports `EXIT=<code>`
    /// at the start of a line when the app ends (even one killed in raw mode) and `TTY-RESTORED` when the terminal settings are back as before.
    init(
        arguments: [String] = [],
        width: Int = 80,
        height: Int = 24,
        environment: [String: String] = [:],
        dataDirectory: TemporaryDirectory? = nil
    ) throws {
        self.dataDirectory = dataDirectory ?? TemporaryDirectory(prefix: "edugo-e2e")
        self.ownsDataDirectory = dataDirectory == nil
        let dataDirectory = self.dataDirectory
        let binary = try Self.binaryPath()
        let dir = dataDirectory.path
        // NO_COLOR only when a test asks for it: the test runner's own environment may set it.
        // English unless a test asks for another language: the runner's locale may name one.
        // EDUGO_FRAME_MARKS: the app marks each frame half sent or whole (`wholeFrame`).
        let exports =
            "unset NO_COLOR LC_ALL LC_MESSAGES; export LANG=C.UTF-8 EDUGO_FRAME_MARKS=1; "
            + environment.map { "export \($0.key)=\(Self.quote($0.value)); " }.joined()
        let command = ([binary, "--data-dir", dir] + arguments).map(Self.quote).joined(separator: " ")
        // Ctrl-C is SIGINT for the whole foreground group here, shell included: `trap : INT`
        // keeps the shell alive to report the exit (an interactive shell's job control would
        // give the app a group of its own).
        let script = """
            trap : INT; \(exports)stty -g > \(dir)/stty.before; \(command); code=$?; stty -g > \(dir)/stty.after; \
            stty sane; printf '\\033]7;\(Self.exitedMark)\\007\\r\\nEXIT=%s\\r\\n' "$code"; \
            cmp -s \(dir)/stty.before \(dir)/stty.after && echo TTY-RESTORED; \
            sleep 600
            """
        // The first command starts the tmux server, which would hold an output pipe open forever.
        try Self.run(
            "/usr/bin/env", tmuxArguments + ["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", target, "sh", "-c", script],
            captureOutput: false)
        let pids = try tmux(["display-message", "-p", "-t", target, "#{pid} #{pane_pid}"])
            .split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        serverPID = pids.first
        panePID = pids.dropFirst().first
    }

    deinit {
        // Certain rather than polite: a tmux server can sit in a blocking read and ignore
        // kill-server, so the pane's process group and the server are killed outright.
        if let panePID { kill(-panePID, SIGKILL) }
        if let serverPID { kill(serverPID, SIGKILL) }
        unlink("/tmp/tmux-\(getuid())/\(socket)")
        if ownsDataDirectory { dataDirectory.remove() }
    }

    /// Sends tmux key names (`Down`, `Enter`, `Escape`, `C-c`) or literal text.
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", target] + keys)
    }

    /// Types text literally, whatever its characters.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", target, "-l", text])
    }

    /// Sends one key name `count` times.
    func send(_ key: String, times count: Int) throws {
        guard count > 0 else { return }
        try tmux(["send-keys", "-t", target, "-N", "\(count)", key])
    }

    enum MouseButton: Int {
        case left = 0
        case release = 3
        case wheelUp = 64
        case wheelDown = 65
    }

    /// Sends a mouse report as the terminal would (X10 encoding, which ncursesw asks tmux's
    /// terminal type for), at a 0-based cell.
    func mouse(_ button: MouseButton, x: Int, y: Int) throws {
        let bytes = [button.rawValue + 32, x + 33, y + 33].map { Character(Unicode.Scalar(UInt8($0))) }
        try type("\u{1B}[M" + String(bytes))
    }

    /// A left click: press and release.
    func click(x: Int, y: Int) throws {
        try mouse(.left, x: x, y: y)
        try mouse(.release, x: x, y: y)
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The screen as text, one string per row: a whole frame (`wholeFrame`).
    func screen() async throws -> [String] {
        try await wholeFrame(styled: false)
    }

    /// The screen with its attributes and colours as SGR escape sequences, one string per row.
    func styledScreen() async throws -> [String] {
        try await wholeFrame(styled: true)
    }

    /// The marks the app writes around each frame (EDUGO_FRAME_MARKS, `edugo_mark_frame`),
    /// and the one the pane's shell writes once the app has ended (a frame it was killed in
    /// the middle of is over).
    private static let drawingMark = "edugo-drawing"
    private static let exitedMark = "edugo-exited"

    /// One tmux command reads the app's frame mark and then the screen: tmux parses the app's
    /// output between commands, never within one, so the screen is the one the mark describes.
    /// Returns nil while a frame is half parsed: a frame can reach the terminal in several
    /// writes, and a screen read between them shows rows of two frames.
    private static func readWholeFrame(_ tmuxArguments: [String], target: String, styled: Bool, with format: String = "")
        throws -> (String, [String])?
    {
        let arguments =
            tmuxArguments + ["display-message", "-p", "-t", target, "#{pane_path}\t\(format)", ";", "capture-pane", "-p"]
            + (styled ? ["-e"] : []) + ["-t", target]
        var lines = try run("/usr/bin/env", arguments).components(separatedBy: "\n")
        guard !lines.isEmpty else { return nil }
        let heading = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false)
        guard heading.first.map(String.init) != drawingMark else { return nil }
        if lines.last == "" { lines.removeLast() }  // every row ends with a newline, the last too
        return (heading.dropFirst().joined(separator: "\t"), lines)
    }

    private func wholeFrame(styled: Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        let (arguments, target) = (tmuxArguments, target)
        let (read, found) = await Self.poll(seconds: 20) {
            try? Self.readWholeFrame(arguments, target: target, styled: styled)?.1
        } until: { _ in
            true
        }
        if found, let read { return read }
        Issue.record("never saw a whole frame", sourceLocation: sourceLocation)
        throw TmuxError.timedOut("a whole frame")
    }

    /// The pane's title, which only an escape sequence written to the terminal can change.
    func paneTitle() throws -> String {
        try tmux(["display-message", "-p", "-t", target, "#{pane_title}"]).trimmingCharacters(in: .newlines)
    }

    /// Whether the terminal has heard a bell (BEL) since the session started.
    func heardBell() throws -> Bool {
        try tmux(["display-message", "-p", "-t", target, "#{window_bell_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// The process id of the app in the pane.
    func appPID() throws -> Int32? {
        // pgrep exits 1 when nothing matches.
        let output = (try? Self.run("/usr/bin/env", ["pgrep", "-f", "--", "--data-dir \(dataDirectory.path)"])) ?? ""
        return output.split(separator: "\n").compactMap { Int32($0) }.first { $0 != getpid() }
    }

    /// Waits until `condition` holds for the screen; records an issue with the screen if it
    /// never does. Waits are generous because CI machines are slow; nothing here is a timing claim.
    /// The screen is watched from a thread of its own: the test process's task threads may be
    /// busy for seconds with another suite's work (the 100 k catalogs), and a status message
    /// that shows for 5 s must not come and go unseen meanwhile.
    @discardableResult
    func waitFor(
        _ description: String,
        timeout: Duration = .seconds(20),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: @escaping @Sendable ([String]) -> Bool
    ) async throws -> [String] {
        let (arguments, target) = (tmuxArguments, target)
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let (read, found) = await Self.poll(seconds: seconds) {
            try? Self.readWholeFrame(arguments, target: target, styled: false)?.1
        } until: {
            condition($0)
        }
        let lines = read ?? []
        if found { return lines }
        Issue.record("never saw \(description); the screen was:\n\(lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
        throw TmuxError.timedOut(description)
    }

    /// Waits until the terminal's cursor satisfies `condition` with the screen it is on:
    /// `(column, row, screen)`, as tmux reports them. Returns them.
    @discardableResult
    func waitForCursor(
        _ description: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: @escaping @Sendable (Int, Int, [String]) -> Bool
    ) async throws -> (x: Int, y: Int, screen: [String]) {
        let (arguments, target) = (tmuxArguments, target)
        let (read, found) = await Self.poll(seconds: 20) { () -> (Int, Int, [String])? in
            // The cursor is read in the same command as the screen, so it is the frame's.
            guard let (cursor, lines) = try? Self.readWholeFrame(arguments, target: target, styled: false, with: "#{cursor_x},#{cursor_y}")
            else { return nil }
            let parts = cursor.split(separator: ",").compactMap { Int($0) }
            return parts.count == 2 ? (parts[0], parts[1], lines) : nil
        } until: {
            condition($0.0, $0.1, $0.2)
        }
        let seen = read ?? (-1, -1, [])
        if found { return seen }
        Issue.record(
            "never saw the cursor \(description); it was at \(seen.0),\(seen.1) on:\n\(seen.2.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        throw TmuxError.timedOut(description)
    }

    /// Reads with `read` every 40 ms, on a thread of its own (tmux is a process run and waited
    /// for), until `until` holds or `seconds` pass: the last reading, and whether it held.
    static func poll<Reading: Sendable>(
        seconds: Double, read: @escaping @Sendable () -> Reading?, until: @escaping @Sendable (Reading) -> Bool
    ) async -> (Reading?, Bool) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let deadline = Date().addingTimeInterval(seconds)
                var last: Reading?
                repeat {
                    if let reading = read() {
                        last = reading
                        if until(reading) {
                            continuation.resume(returning: (reading, true))
                            return
                        }
                    }
                    Thread.sleep(forTimeInterval: 0.04)
                } while Date() < deadline
                continuation.resume(returning: (last, false))
            }
        }
    }

    /// From now on, every byte the app writes to the terminal is copied to `output.raw` in
    /// the data directory (tmux's pipe-pane), escape sequences and all.
    func recordOutput() throws {
        try tmux(["pipe-pane", "-o", "-t", target, "cat >> \(Self.quote(outputFile.path))"])
    }

    private var outputFile: URL { dataDirectory.url.appendingPathComponent("output.raw") }

    /// Waits until what the app wrote (`recordOutput`) satisfies `condition`; what it wrote
    /// reaches the file in order, so once a later frame's text is there, every byte before it is.
    @discardableResult
    func waitForOutput(
        _ description: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: @escaping @Sendable (Data) -> Bool
    ) async throws -> Data {
        let file = outputFile
        let (data, found): (Data, Bool) = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let deadline = Date().addingTimeInterval(20)
                var data = Data()
                repeat {
                    data = (try? Data(contentsOf: file)) ?? Data()
                    if condition(data) {
                        continuation.resume(returning: (data, true))
                        return
                    }
                    Thread.sleep(forTimeInterval: 0.04)
                } while Date() < deadline
                continuation.resume(returning: (data, false))
            }
        }
        if found { return data }
        Issue.record("never saw \(description) in the output (\(data.count) bytes)", sourceLocation: sourceLocation)
        throw TmuxError.timedOut(description)
    }

    /// Waits until `text` appears anywhere on the screen.
    @discardableResult
    func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        try await waitFor("\"\(text)\"", sourceLocation: sourceLocation) { $0.contains { $0.contains(text) } }
    }

    /// Signs in as the demo learner if the login screen shows; returns when the tabs show.
    func signInIfAsked(inSpanish spanish: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (signIn, tab) = spanish ? ("Inicia sesión en EduGo", "1 Catálogo") : ("Sign in to EduGo", "1 Catalog")
        let screen = try await waitFor("the login screen or the tabs", sourceLocation: sourceLocation) { lines in
            lines.contains { $0.contains(signIn) } || lines.first?.contains(tab) == true
        }
        guard screen.contains(where: { $0.contains(signIn) }) else { return }
        try type("demo@edugo.dev")
        try send("Tab")
        try type("edugo-demo")
        try send("Enter")
        try await waitFor("the tabs", sourceLocation: sourceLocation) { $0.first?.contains(tab) == true }
    }

    /// Waits for the app to end and returns its exit code.
    func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int32 {
        let lines = try await waitFor("the app to exit", sourceLocation: sourceLocation) { $0.contains { $0.hasPrefix("EXIT=") } }
        let line = lines.first { $0.hasPrefix("EXIT=") }!
        return Int32(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) ?? -1
    }

    /// True once the pane has printed that the terminal settings match those before the app.
    func terminalRestored() async throws -> Bool {
        let lines = try await waitFor("TTY-RESTORED") { $0.contains { $0.contains("TTY-RESTORED") } }
        return lines.contains { $0.contains("TTY-RESTORED") }
    }

    // MARK: - Process plumbing

    enum TmuxError: Error {
        case failed(String)
        case timedOut(String)
    }

    private var tmuxArguments: [String] { ["tmux", "-L", socket, "-f", "/dev/null"] }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        try Self.run("/usr/bin/env", tmuxArguments + arguments)
    }

    /// Runs a command and returns its standard output. Uses posix_spawn and waitpid rather
    /// than Foundation's Process, which waits for every process that inherited its pipes, and
    /// the tmux server daemon inherits them for as long as it lives.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], captureOutput: Bool = true) throws -> String {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if captureOutput {
            // CLOEXEC: a tmux server started meanwhile by another test must not inherit this
            // pipe, or the read below would wait for that server to exit.
            guard pipe(&pipeEnds) == 0 else { throw TmuxError.failed("pipe") }
            _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-e2e-stderr-\(UUID().uuidString)").path
        defer { unlink(errorLog) }
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        if captureOutput { close(pipeEnds[1]) }
        guard spawned == 0 else {
            if captureOutput { close(pipeEnds[0]) }
            throw TmuxError.failed("cannot start \(executable): \(spawned)")
        }
        var output = Data()
        if captureOutput {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(pipeEnds[0], &buffer, buffer.count)
                if count <= 0 { break }
                output.append(contentsOf: buffer[0..<count])
            }
            close(pipeEnds[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            let message = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            throw TmuxError.failed("\(arguments.joined(separator: " ")) exited with status \(status): \(message)")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The `tui` built next to this test bundle.
    static func binaryPath() throws -> String {
        try BuiltProduct.path("tui")
    }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Runs `tui` with pipes for stdin, stdout and stderr (so not a terminal).
func runTUI(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
    try await BuiltProduct.run("tui", arguments)
}
