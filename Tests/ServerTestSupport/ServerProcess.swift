import Foundation
import Platform
import SharedKernel
import Storage
import Synchronization
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real `edugo-server` binary on a free loopback port (`--port 0`), with its own data
/// directory. Tests speak HTTP to it, as any client would.
public final class ServerProcess: Sendable {
    public let directory: TemporaryDirectory
    public let baseURL: URL
    /// `/metrics` on the metrics address, when `--metrics-address` was given.
    public let metricsURL: URL?
    /// The child process; a `Mutex` makes it safe to signal from any task.
    private let process: Mutex<Process>
    private let errorLines = LockedLines()

    /// Starts the server on `directory` (a fresh one by default) and returns once it printed
    /// the address it listens on.
    public init(directory: TemporaryDirectory = TemporaryDirectory(prefix: "edugo-server-tests"), port: Int = 0, arguments: [String] = [])
        async throws
    {
        self.directory = directory
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try BuiltProduct.path("edugo-server"))
        child.arguments = ["--port", String(port), "--data-dir", directory.path] + arguments
        let output = Pipe()
        let errors = Pipe()
        child.standardOutput = output
        child.standardError = errors
        child.standardInput = FileHandle.nullDevice
        let lines = errorLines
        try child.run()
        // Read on a thread of its own with blocking reads until the child's end closes the
        // pipe. A `readabilityHandler` (a dispatch read source) was never set back to nil: it
        // fired without end at EOF, and the handle closed its descriptor while the source's
        // cancel was still in flight — a reused descriptor under a live source crashed
        // libdispatch's manager thread once (`_dispatch_event_loop_drain`).
        let reading = errors.fileHandleForReading
        Thread.detachNewThread {
            // read(2) itself: it returns what the pipe holds, as the server writes it
            // (`FileHandle.read(upToCount:)` waits for the whole count), and never traps.
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(reading.fileDescriptor, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                lines.append(Data(buffer[..<count]))
            }
        }
        process = Mutex(child)

        // Waiting for the child to print (seconds, on a loaded machine) happens on a thread of
        // its own: on a cooperative thread it stalled every other suite, whose stand-in
        // servers' clients then missed their time limits.
        let addresses = output.fileHandleForReading
        let wantsMetrics = arguments.contains("--metrics-address")
        let (api, metrics) = try await onOwnThread { try Self.readAddresses(from: addresses, wantsMetrics: wantsMetrics, errors: lines) }
        baseURL = api
        metricsURL = metrics
    }

    /// The API's line, and the metrics address's when one is asked for, in either order;
    /// blocks until the child wrote them (or ended).
    private static func readAddresses(from reading: FileHandle, wantsMetrics: Bool, errors: LockedLines) throws -> (URL, URL?) {
        var text = ""
        var api: URL?
        var metrics: URL?
        while api == nil || (wantsMetrics && metrics == nil) {
            let chunk = reading.availableData
            if chunk.isEmpty { throw ServerTestError("edugo-server ended before it listened: \(errors.text)") }
            text += String(decoding: chunk, as: UTF8.self)
            // Whole lines only: the last piece is one still being written (or nothing).
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                if line.hasPrefix("EduGo server listening on http://"), let port = line.split(separator: ":").last {
                    // Whatever address it listens on, loopback reaches it.
                    api = URL(string: "http://127.0.0.1:\(port)")
                } else if line.hasPrefix("EduGo metrics on ") {
                    metrics = URL(string: String(line.dropFirst("EduGo metrics on ".count)))
                } else {
                    throw ServerTestError("unexpected line: \(line)")
                }
            }
        }
        guard let api else { throw ServerTestError("no address in \(text)") }
        return (api, metrics)
    }

    deinit {
        process.withLock { if $0.isRunning { $0.terminate() } }
    }

    /// What the server wrote on stderr so far.
    public var log: String { errorLines.text }

    public func signal(_ number: Int32) {
        _ = process.withLock { kill($0.processIdentifier, number) }
    }

    /// The server's open sockets now (its connections, listeners and database's none), as
    /// `/proc` lists them.
    public var openSockets: Int {
        let pid = process.withLock { $0.processIdentifier }
        let folder = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0))?.hasPrefix("socket:") == true
        }
        .count
    }

    /// Waits for the process to end; its exit status.
    public func waitForExit() async -> Int32 {
        while process.withLock({ $0.isRunning }) { try? await Task.sleep(for: .milliseconds(20)) }
        return process.withLock { $0.terminationStatus }
    }

    /// Waits until the log has `count` lines containing `text`.
    public func waitForLog(_ text: String, after count: Int = 1, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while log.components(separatedBy: text).count - 1 < count {
            guard ContinuousClock.now < deadline else { throw ServerTestError("never logged \(text): \(log)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// A data directory made before the server starts: the built-in catalog, and the demo
    /// learner and `learners` more (learner1@example.com …, password `password-1` …) hashed
    /// cheaply, so tests sign in fast. Sign-in costs the same code either way: the cost is in
    /// the stored hash.
    public static func preparedDirectory(learners: Int = 0, courses: [CourseEntry] = []) async throws -> TemporaryDirectory {
        let directory = TemporaryDirectory(prefix: "edugo-server-tests")
        let hasher = PasswordHasher(rounds: 1)
        // Migrations and an import are long synchronous work: off the cooperative threads.
        let database = try await onOwnThread { try AppDatabase.open(directory: directory.url, passwordHasher: hasher) }
        let accounts = AccountService(store: SQLiteAccountStore(database: database), hasher: hasher)
        for number in stride(from: 1, through: learners, by: 1) {
            _ = try await accounts.register(name: "Learner", email: "learner\(number)@example.com", password: "password-\(number)")
        }
        if !courses.isEmpty { _ = try await onOwnThread { try database.importCourses(entries: courses) } }
        // Closed here, not when released: a test that opens the file next met the close's
        // checkpoint holding the lock ("database is locked").
        try await onOwnThread { try database.close() }
        return directory
    }
}

public struct ServerTestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Bytes appended from the pipe's reading thread, read by the test.
private final class LockedLines: Sendable {
    private let data = Mutex(Data())

    func append(_ chunk: Data) {
        data.withLock { $0.append(chunk) }
    }

    var text: String {
        data.withLock { String(decoding: $0, as: UTF8.self) }
    }
}

/// One HTTP exchange's answer.
public struct HTTPAnswer: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data

    /// The body as a JSON object.
    public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    public var errorCode: String? { json["error"] as? String }
    public var message: String? { json["message"] as? String }
}

/// A plain HTTP client: exactly the bytes a test means, however wrong.
public struct HTTPClient: Sendable {
    public let baseURL: URL
    public var token: String?

    public init(baseURL: URL, token: String? = nil) {
        self.baseURL = baseURL
        self.token = token
    }

    public func send(_ method: String, _ path: String, json: Any? = nil, body: Data? = nil, headers: [String: String] = [:]) async throws
        -> HTTPAnswer
    {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
        request.httpMethod = method
        // What the server answers, never a copy kept by URLSession (a 304 is a 304).
        request.cachePolicy = .reloadIgnoringLocalCacheData
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            request.httpBody = body
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return HTTPAnswer(status: http.statusCode, headers: fields, body: data)
    }

    public func get(_ path: String) async throws -> HTTPAnswer { try await send("GET", path) }

    /// Signs in and returns a client that carries the access token, with the session.
    public func signedIn(email: String = "demo@edugo.dev", password: String = "edugo-demo") async throws -> (HTTPClient, [String: Any]) {
        let answer = try await send("POST", "/v1/sessions", json: ["email": email, "password": password])
        guard answer.status == 201, let token = answer.json["access_token"] as? String else {
            throw ServerTestError("sign-in of \(email) answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        var client = self
        client.token = token
        return (client, answer.json)
    }
}
