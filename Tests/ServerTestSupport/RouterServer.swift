import Foundation
import Hummingbird
import Logging

/// A Hummingbird router on a free loopback port, for servers that are not EduGo's (broken,
/// silent or hostile ones). `stop()` the returned service when done.
public enum RouterServer {
    public static func start(_ router: Router<BasicRequestContext>) async throws -> RunningService {
        try await ListeningService.start { onListening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
                onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
                logger: Logger(label: "router-server", factory: { _ in SwiftLogNoOpLogHandler() })
            )
        }
    }
}

extension RouterServer {
    /// An answer with `text` as its JSON body.
    public static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// What a stand-in for an EduGo server needs to sign the app in and show its tabs: health,
    /// a sign-in that takes anyone as the demo learner (tokens that mean nothing), and, unless
    /// the stand-in answers them itself, no enrollments and no favourites.
    public static func addSignIn(to router: Router<BasicRequestContext>, withEmptyLists: Bool = true) {
        router.get("/health") { _, _ in json(#"{"status": "ok"}"#) }
        router.post("/v1/sessions") { _, _ in
            json(
                """
                {"access_token": "a", "refresh_token": "r", "expires_in": 900,
                 "user": {"id": 1, "name": "Demo Learner", "email": "demo@edugo.dev", "role": "learner", "member_since": "2026-01-01T00:00:00Z"}}
                """, status: .created)
        }
        guard withEmptyLists else { return }
        router.get("/v1/me/enrollments") { _, _ in json(#"{"enrollments": []}"#) }
        router.get("/v1/me/favourites") { _, _ in json(#"{"courses": []}"#) }
    }
}
