import Foundation
import Hummingbird
import Logging

/// A Hummingbird router on a free loopback port, for servers that are not EduGo's (broken,
/// silent or hostile ones). Cancel the returned task to stop it.
public enum RouterServer {
    public static func start(_ router: Router<BasicRequestContext>) async throws -> (URL, Task<Void, any Error>) {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in
                listening.yield(channel.localAddress?.port ?? 0)
                listening.finish()
            },
            logger: Logger(label: "router-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let running = Task {
            defer { listening.finish() }
            try await application.run()
        }
        guard let port = await ports.first(where: { _ in true }) else { throw ServerTestError("the router server did not start") }
        return (URL(string: "http://127.0.0.1:\(port)")!, running)
    }
}
