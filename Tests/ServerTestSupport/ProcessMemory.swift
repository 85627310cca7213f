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
