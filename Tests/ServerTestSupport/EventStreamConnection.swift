import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `GET /v1/me/events` on a connection of its own, read event by event as a client would
/// (from a loopback address of the test's choosing): the answer's head, then the chunked
/// body's server-sent events. Reads give up after `readLimit`, so a stream that never says
/// what a test waits for fails the test instead of hanging it.
public final class EventStreamConnection: @unchecked Sendable {
    /// One event as it came; a keep-alive is an event with no field.
    public struct Event: Equatable, Sendable, CustomStringConvertible {
        public var id: String?
        public var name: String?
        public var data: String?

        public var isKeepAlive: Bool { id == nil && name == nil && data == nil }
        public var description: String { isKeepAlive ? "(keep-alive)" : "\(name ?? "-") \(id ?? "-") \(data ?? "-")" }

        /// The `course_id` of its data, if any.
        public var courseID: String? {
            guard let data, let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return nil }
            return object["course_id"] as? String
        }
    }

    public let status: Int
    public let headers: [String: String]
    private let descriptor: Int32
    /// Bytes read and not yet taken (the rest of the body's chunks).
    private var buffer: [UInt8] = []
    /// Event bytes of the body, decoded from its chunks, not yet parsed into events.
    private var events: [UInt8] = []
    /// The fields of the event being read.
    private var building = Event()
    private var bodyEnded = false

    /// Opens the stream with `token` (and `lastEventID`) and reads the answer's head.
    public init(
        to server: URL, from source: String = "127.0.0.1", token: String, lastEventID: String? = nil,
        readLimit: Duration = .seconds(30)
    ) async throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerTestError("socket: \(String(cString: strerror(errno)))") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(server.port ?? 80).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        var timeout = timeval(tv_sec: Int(readLimit.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let descriptor = self.descriptor
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ServerTestError("connect from \(source): \(reason)")
        }
        var request = "GET /v1/me/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: Bearer \(token)\r\n"
        if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
        let bytes = Array((request + "\r\n").utf8)
        let written = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard written == bytes.count else { throw ServerTestError("send: \(String(cString: strerror(errno)))") }

        // The head, up to its empty line.
        var received: [UInt8] = []
        while true {
            if let end = Self.find([13, 10, 13, 10], in: received) {
                let head = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
                status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
                var fields: [String: String] = [:]
                for line in head.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                headers = fields
                buffer = Array(received[(end + 4)...])
                break
            }
            guard let more = try await Self.receive(descriptor) else { throw ServerTestError("the answer ended within its head") }
            received += more
        }
    }

    deinit {
        close(descriptor)
    }

    /// Closes the connection, as a client that goes away does.
    public func disconnect() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// The next event, keep-alives included; nil once the stream ended (its last chunk, or
    /// the connection closed). Throws when nothing came within the read limit.
    public func next() async throws -> Event? {
        while true {
            if let event = takeEvent() { return event }
            if bodyEnded { return nil }
            try await decodeChunk()
        }
    }

    /// The next event that is not a keep-alive; throws when none came within `limit`.
    public func nextEvent(within limit: Duration = .seconds(30)) async throws -> Event? {
        let deadline = ContinuousClock.now + limit
        while let event = try await next() {
            if !event.isKeepAlive { return event }
            guard ContinuousClock.now < deadline else { throw ServerTestError("only keep-alives for \(limit)") }
        }
        return nil
    }

    /// Whether the stream ends (rather than the read limit passing with it still open).
    public func ends() async -> Bool {
        do {
            while try await next() != nil {}
            return true
        } catch {
            return false
        }
    }

    // MARK: - Reading

    /// One event from the decoded bytes, if a whole one (up to an empty line) is there: its
    /// lines are read as they come, and an empty line ends it.
    private func takeEvent() -> Event? {
        while let end = events.firstIndex(of: 10) {
            let line = String(decoding: events[..<end], as: UTF8.self)
            events.removeSubrange(...end)
            if line.isEmpty {
                defer { building = Event() }
                return building
            }
            guard !line.hasPrefix(":") else { continue }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? String(parts[1].hasPrefix(" ") ? parts[1].dropFirst() : parts[1]) : ""
            switch parts[0] {
            case "id": building.id = value
            case "event": building.name = value
            case "data": building.data = building.data.map { $0 + "\n" + value } ?? value
            default: break
            }
        }
        return nil
    }

    /// Moves one chunk of the body into `events`.
    private func decodeChunk() async throws {
        while true {
            if let lineEnd = Self.find([13, 10], in: buffer) {
                let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first.map(String.init) ?? ""
                guard let size = Int(sizeText, radix: 16) else { throw ServerTestError("not a chunk size: \(sizeText.debugDescription)") }
                if size == 0 {
                    bodyEnded = true
                    return
                }
                let start = lineEnd + 2
                if buffer.count >= start + size + 2 {
                    events += buffer[start..<(start + size)]
                    buffer.removeSubrange(..<(start + size + 2))
                    return
                }
            }
            guard let more = try await Self.receive(descriptor) else {
                bodyEnded = true
                return
            }
            buffer += more
        }
    }

    /// What one read gives; nil when the connection ended. Throws when the read limit passed
    /// with the connection still open: the stream was silent.
    private static func receive(_ descriptor: Int32) async throws -> [UInt8]? {
        let (bytes, error) = await withCheckedContinuation { (continuation: CheckedContinuation<([UInt8]?, Int32), Never>) in
            DispatchQueue.global().async {
                var bytes = [UInt8](repeating: 0, count: 16 * 1024)
                var count = recv(descriptor, &bytes, bytes.count, 0)
                // A signal (a debugger attaching) interrupts the wait, nothing more.
                while count < 0, errno == EINTR { count = recv(descriptor, &bytes, bytes.count, 0) }
                continuation.resume(returning: (count > 0 ? Array(bytes[0..<count]) : nil, count < 0 ? errno : 0))
            }
        }
        if error == EAGAIN || error == EWOULDBLOCK { throw ServerTestError("the stream said nothing within the read limit") }
        return bytes
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
