import Foundation
import Hummingbird
import ServerTestSupport
import Testing

/// The in-process servers of the tests stop gracefully. Cancelling one instead while
/// connections arrive traps the test process ("Deinited NIOAsyncWriter without calling
/// finish()": CI, 2026-11-28; this test with a cancel in place of `stop()` trapped at once).
@Suite("Test services: stopping")
struct ServiceStopTests {
    @Test("a server stopped while 40 connections arrive, 150 times: nothing traps")
    func stopWhileConnecting() async throws {
        for _ in 0..<150 {
            let router = Router()
            router.get("/health") { _, _ in "ok" }
            let server = try await RouterServer.start(router)
            let url = server.url
            let connecting = Task.detached {
                (0..<40).compactMap { _ in try? RawConnection(to: url) }.count
            }
            // Stops at some point of the connections' arrival, not always the same one.
            try await Task.sleep(for: .microseconds(Int.random(in: 0..<800)))
            await server.stop()
            _ = await connecting.value
        }
    }
}
