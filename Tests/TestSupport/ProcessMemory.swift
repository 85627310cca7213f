import Foundation

/// A process's memory as Linux reports it in `/proc/PID/status`, for tests that hold memory to
/// a bound (a bound, not a timing: what a process holds, whatever the machine's speed).
public enum ProcessMemory {
    /// Resident memory now (`VmRSS`), in bytes; `pid` nil for this process.
    public static func resident(pid: Int32? = nil) -> Int? {
        field("VmRSS", pid: pid)
    }

    /// The most resident memory the process ever had (`VmHWM`), in bytes.
    public static func residentHighWaterMark(pid: Int32? = nil) -> Int? {
        field("VmHWM", pid: pid)
    }

    /// Starts this process's high-water mark afresh at its resident memory now (Linux's
    /// `clear_refs` 5), so a later `residentHighWaterMark()` is the peak since this call;
    /// false where the kernel does not allow it.
    @discardableResult
    public static func resetHighWaterMark() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    /// Runs the program at `path` to its end (no input, output thrown away): its exit status
    /// and the peak of its resident memory in bytes, as the kernel counted it for that child
    /// alone (`wait4`'s `ru_maxrss`).
    public static func peakOfRun(_ path: String, _ arguments: [String]) throws -> (status: Int32, peak: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw CocoaError(.executableLoad) }
        }
        // Exited normally: the status is in the second byte.
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exit, usage.ru_maxrss * 1024)
    }

    private static func field(_ name: String, pid: Int32?) -> Int? {
        let path = "/proc/\(pid.map(String.init) ?? "self")/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        // `VmRSS:	   12345 kB`
        for line in text.split(separator: "\n") where line.hasPrefix("\(name):") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }
}
