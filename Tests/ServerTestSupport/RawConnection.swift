import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a loopback server from a loopback address of the test's choosing
/// (127.0.0.2 and up are other clients, as far as the server can tell), speaking whatever
/// bytes the test sends: half a request, a broken chunk, nothing at all.
public final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects from `source` to `server`'s port. Reads give up after `readLimit`, so a server
    /// that never answers fails the test instead of hanging it.
    public init(to server: URL, from source: String = "127.0.0.1", readLimit: Duration = .seconds(30)) throws {
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
    }

    deinit {
        close(descriptor)
    }

    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard written == bytes.count else { throw ServerTestError("send: \(String(cString: strerror(errno)))") }
    }

    /// What the server sends until it closes the connection (`closed`), or until the read
    /// limit passes with the connection still open.
    public func readUntilClosed() async -> (text: String, closed: Bool) {
        let descriptor = self.descriptor
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = recv(descriptor, &buffer, buffer.count, 0)
                    if count > 0 {
                        data.append(contentsOf: buffer[0..<count])
                        continue
                    }
                    // A signal (a debugger attaching) interrupts the wait, nothing more.
                    if count < 0, errno == EINTR { continue }
                    // 0: the server closed it; -1 with ECONNRESET: closed hard. A time-out is not closed.
                    let closed = count == 0 || errno == ECONNRESET
                    continuation.resume(returning: (String(decoding: data, as: UTF8.self), closed))
                    return
                }
            }
        }
    }

    /// One request and its whole answer, on a connection of its own from `source`
    /// (`Connection: close`, so the answer ends with the connection).
    public static func exchange(
        _ server: URL, from source: String, method: String, path: String, json: [String: Any]? = nil, headers: [String: String] = [:],
        readLimit: Duration = .seconds(30)
    ) async throws -> HTTPAnswer {
        let connection = try RawConnection(to: server, from: source, readLimit: readLimit)
        let body = try json.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) } ?? ""
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
        if json != nil { request += "Content-Type: application/json\r\n" }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try connection.send(request + "\r\n" + body)
        let (text, _) = await connection.readUntilClosed()
        return try HTTPAnswer(raw: text)
    }
}

extension HTTPAnswer {
    /// An HTTP/1.1 answer as it came off the wire (a body of a known length).
    public init(raw: String) throws {
        guard let split = raw.range(of: "\r\n\r\n") else { throw ServerTestError("no complete answer: \(raw.debugDescription)") }
        let lines = raw[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.init(status: status, headers: headers, body: Data(raw[split.upperBound...].utf8))
    }
}
