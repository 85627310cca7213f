import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Tells when the config file may have changed: an inotify watch on its folder (editors
/// replace a file by renaming another over it, so the file itself is not what is watched),
/// read on a thread of its own. No polling: the kernel wakes it.
final class ConfigWatcher: Sendable {
    /// One element per batch of changes to the file's name in its folder.
    let changes: AsyncStream<Void>
    private let descriptor: Int32
    /// Written to by `stop`: a close would not wake a thread blocked reading.
    private let stopPipe: (read: Int32, write: Int32)

    /// `nil` when the folder cannot be watched (it does not exist, or inotify is refused):
    /// the app then runs with the settings it started with.
    init?(path: String) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        stopPipe = (ends[0], ends[1])
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.changes = changes
        let stopRead = ends[0]
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var watched = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0),
            ]
            while true {
                let ready = poll(&watched, 2, -1)
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0, watched[1].revents == 0 else { break }
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                if Self.names(in: buffer[..<count]).contains(name) { continuation.yield() }
            }
            close(descriptor)
            close(stopRead)
            continuation.finish()
        }
    }

    /// Ends the watch: the reading thread wakes, closes what it holds and ends.
    func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        close(stopPipe.write)
    }

    /// The file names of the events in one read.
    private static func names(in bytes: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let length = bytes.withUnsafeBytes { raw in
                Int(raw.loadUnaligned(fromByteOffset: offset - bytes.startIndex + 12, as: UInt32.self))
            }
            let start = offset + header
            let end = min(bytes.endIndex, start + length)
            let name = bytes[start..<end].prefix { $0 != 0 }
            names.append(String(decoding: name, as: UTF8.self))
            offset = end
        }
        return names
    }
}
