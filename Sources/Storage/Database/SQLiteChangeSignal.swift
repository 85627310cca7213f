import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Wakes whoever listens when the database file or its write-ahead log is written, by this
/// process or any other: the kernel's file events (inotify) on the data directory, read by a
/// Dispatch source. Nothing polls; an idle database costs nothing.
public struct SQLiteChangeSignal: Sendable {
    private let directory: String
    private let names: Set<String>

    public init(database: AppDatabase) {
        let url = URL(fileURLWithPath: database.path)
        directory = url.deletingLastPathComponent().path
        names = [url.lastPathComponent, url.lastPathComponent + "-wal"]
    }

    /// One wake-up (coalesced) after each burst of writes, from the moment this returns until
    /// the stream is dropped. Ends at once if the system will not watch the directory.
    public func wakeups() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            continuation.finish()
            return stream
        }
        guard inotify_add_watch(descriptor, directory, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)) >= 0 else {
            close(descriptor)
            continuation.finish()
            return stream
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "edugo.database-changes"))
        let names = self.names
        source.setEventHandler {
            if Self.drain(descriptor, watching: names) { continuation.yield() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        let watch = Watch(source)
        continuation.onTermination = { _ in watch.cancel() }
        return stream
    }

    /// The source, cancelled (and its descriptor closed) once, by whoever drops the stream.
    private final class Watch: Sendable {
        private let source: Mutex<(any DispatchSourceRead)?>

        init(_ source: sending any DispatchSourceRead) {
            self.source = Mutex(source)
        }

        func cancel() {
            source.withLock { source in
                source?.cancel()
                source = nil
            }
        }
    }

    /// Reads every event waiting; whether one was about the database's files.
    private static func drain(_ descriptor: Int32, watching names: Set<String>) -> Bool {
        var relevant = false
        let size = 16 * 1_024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            guard count > 0 else { return relevant }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                if nameLength > 0, !relevant {
                    let name = buffer.advanced(by: offset + MemoryLayout<inotify_event>.size).assumingMemoryBound(to: CChar.self)
                    relevant = names.contains(String(cString: name))
                }
                offset += MemoryLayout<inotify_event>.size + nameLength
            }
        }
    }
}
