import Dispatch
import Foundation
import SharedKernel

#if canImport(Glibc)
import Glibc
#endif

/// What lets several app instances on one data directory share one server's session file
/// (`<hash>.lock` beside `<hash>.json`, mode 0600): an exclusive `flock` held while a refresh
/// reads the stored token, trades it and stores the new one. Whoever comes next reads the
/// token just stored, so one rotation serves every instance and none presents a used token
/// (which the server takes for a stolen one, ending the sign-in everywhere).
struct SessionLock: Sendable {
    let url: URL

    /// Runs `body` holding the lock; it is released when `body` returns or throws, and also
    /// when the waiting task was cancelled meanwhile (then `body` does not run). A process
    /// that dies holding it releases it too: the kernel drops a `flock` with its descriptor.
    func withLock<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws(AppError) -> T) async throws(AppError) -> T {
        let descriptor = try await acquire()
        defer {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        return try await body()
    }

    /// Opens the lock file and waits for the lock. The wait blocks a Dispatch thread, never
    /// one of Swift's cooperative pool; another holder keeps it only for one refresh, which
    /// the request time limit bounds.
    private func acquire() async throws(AppError) -> Int32 {
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .storage(.saving, detail: "session lock \(url.path): \(String(cString: strerror(errno)))") }
        let failure: Int32 = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var result: Int32
                repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
                continuation.resume(returning: result == 0 ? 0 : errno)
            }
        }
        guard failure == 0 else {
            close(descriptor)
            throw .storage(.saving, detail: "session lock \(url.path): \(String(cString: strerror(failure)))")
        }
        guard !Task.isCancelled else {
            flock(descriptor, LOCK_UN)
            close(descriptor)
            throw .cancelled
        }
        return descriptor
    }
}
