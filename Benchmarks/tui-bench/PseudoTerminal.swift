import CPty
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program running in a pseudo-terminal of its own, read and written like a person's
/// terminal would be, with a clock on every byte.
final class PseudoTerminal {
    let pid: pid_t
    private let master: Int32
    private(set) var spawnedAt: ContinuousClock.Instant
    private let clock = ContinuousClock()

    /// Starts `executable` with `arguments` on a fresh 80×24 (or given) pseudo-terminal.
    init(_ executable: String, _ arguments: [String], environment: [String: String], rows: UInt16 = 24, columns: UInt16 = 80) throws {
        var name = [CChar](repeating: 0, count: 256)
        master = cpty_open(&name, name.count)
        guard master >= 0 else { throw BenchError.failed("cannot open a pseudo-terminal") }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = cpty_set_window_size(master, rows, columns)
        let slave = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened after setsid, the slave becomes the child's controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, 0x80)  // POSIX_SPAWN_SETSID, not exported to Swift

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        spawnedAt = clock.now
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw BenchError.failed("cannot start \(executable): \(String(cString: strerror(status)))") }
        pid = child
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
    }

    /// Writes keys as the terminal would send them and returns when they were written.
    @discardableResult
    func send(_ text: String) -> ContinuousClock.Instant {
        let bytes = Array(text.utf8)
        let at = clock.now
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        return at
    }

    struct Output {
        var bytes: [UInt8] = []
        var lastByteAt: ContinuousClock.Instant?
        /// When the marker waited for came (its frame drawn, whatever is redrawn after it).
        var markerAt: ContinuousClock.Instant?
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// Reads until nothing has come for `quiet`, or until `timeout`. The time of the last
    /// byte read is when the frame ended; the quiet period only tells that it has.
    func readUntilQuiet(quiet: Duration = .milliseconds(60), timeout: Duration = .seconds(120), until marker: String? = nil) -> Output {
        var output = Output()
        let deadline = clock.now + timeout
        var sawMarker = marker == nil
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while clock.now < deadline {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let wait = sawMarker ? quiet : .milliseconds(200)
            let milliseconds = Int32(wait.components.seconds * 1_000 + wait.components.attoseconds / 1_000_000_000_000_000)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready == 0 {
                if sawMarker { break }
                continue
            }
            if ready < 0 { if errno == EINTR { continue } else { break } }
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }
            output.bytes += buffer[0..<count]
            output.lastByteAt = clock.now
            if !sawMarker, let marker, output.text.contains(marker) {
                sawMarker = true
                output.markerAt = output.lastByteAt
            }
        }
        return output
    }

    /// Waits up to `timeout` for output to start (a frame nobody asked for by a key), then
    /// reads it until nothing has come for `quiet`.
    func readNextFrame(quiet: Duration = .milliseconds(60), timeout: Duration = .seconds(10)) -> Output {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return Output() }
        return readUntilQuiet(quiet: quiet, timeout: timeout)
    }

    /// The most memory the process has held (VmHWM), in bytes.
    func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
            return kilobytes.map { $0 * 1_024 }
        }
        return nil
    }
}

enum BenchError: Error, CustomStringConvertible {
    case failed(String)

    var description: String {
        switch self {
        case .failed(let message): message
        }
    }
}
