import ServiceLifecycle

/// A service of this test process that listens on a port it picks (`--port 0`'s way): an
/// EduGo server in process, say. Cancel `running` to stop it.
public enum ListeningService {
    /// Runs the service `make` builds, handing it what to call with its port once bound, and
    /// returns then: the port and the task running it. One that ends before it listens (its
    /// port taken) throws, saying why, instead of being waited for.
    public static func start<S: Service>(
        _ make: (_ onListening: @escaping @Sendable (Int) -> Void) async throws -> S
    ) async throws -> (port: Int, running: Task<Void, any Error>) {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let service = try await make { port in
            listening.yield(port)
            listening.finish()
        }
        let running = Task {
            defer { listening.finish() }
            try await service.run()
        }
        guard let port = await ports.first(where: { _ in true }) else {
            running.cancel()
            let reason: String
            switch await running.result {
            case .failure(let error): reason = String(describing: error)
            case .success: reason = "it ended"
            }
            throw ServerTestError("the in-process service did not start: \(reason)")
        }
        return (port, running)
    }
}
