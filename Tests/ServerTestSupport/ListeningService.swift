import Foundation
import Logging
import ServiceLifecycle

/// A service of this test process that listens on a port it picks (`--port 0`'s way): an
/// EduGo server in process, say, or a stand-in for one.
///
/// It is stopped as SIGTERM stops the real server: a graceful shutdown, awaited. Cancelling
/// its task instead traps the whole test process now and then: a connection NIO accepted
/// but the server had not taken yet is dropped with its writer unfinished ("Deinited
/// NIOAsyncWriter without calling finish()", swift-nio #2637; CI, 2026-11-28). A graceful
/// shutdown closes the listener and serves every connection already accepted.
public struct RunningService: Sendable {
    public let port: Int
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    fileprivate init(port: Int, group: ServiceGroup, running: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.running = running
    }

    /// Shuts it down gracefully and waits until it has. A handler that would wait for ever
    /// waits for `untilShutdown()` instead, or this never returns.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    /// `body`, then `stop()`, whether `body` returned or threw.
    public func stopping<Result>(after body: () async throws -> Result) async throws -> Result {
        do {
            let result = try await body()
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }

    /// What a stand-in's handler that never answers waits for: the service's graceful
    /// shutdown (its request tasks carry it), or their cancellation.
    public static func untilShutdown() async {
        try? await gracefulShutdown()
    }

    /// Whether the service whose request this is shuts down: what a handler that writes
    /// without end checks.
    public static var isShuttingDown: Bool { Task.isShuttingDownGracefully }
}

public enum ListeningService {
    /// Runs the service `make` builds, handing it what to call with its port once bound, and
    /// returns then. One that ends before it listens (its port taken) throws, saying why,
    /// instead of being waited for.
    public static func start<S: Service>(
        _ make: (_ onListening: @escaping @Sendable (Int) -> Void) async throws -> S
    ) async throws -> RunningService {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let service = try await make { port in
            listening.yield(port)
            listening.finish()
        }
        let group = ServiceGroup(services: [service], logger: Logger(label: "test-service", factory: { _ in SwiftLogNoOpLogHandler() }))
        let running = Task {
            defer { listening.finish() }
            try await group.run()
        }
        guard let port = await ports.first(where: { _ in true }) else {
            // Nothing listens, so nothing was accepted: cancelling is safe here.
            running.cancel()
            let reason: String
            switch await running.result {
            case .failure(let error): reason = String(describing: error)
            case .success: reason = "it ended"
            }
            throw ServerTestError("the in-process service did not start: \(reason)")
        }
        return RunningService(port: port, group: group, running: running)
    }
}
