import Foundation
import Logging
import Platform
import RemoteStore
import ServerComposition
import ServerTestSupport
import ServiceLifecycle
import SharedKernel
import Synchronization
import TestSupport

@testable import Server
@testable import Storage

/// The EduGo server in this test process, on a free loopback port over its own SQLite
/// database: what the remote store is held to. `stop()` ends it, as a restart would.
struct InProcessServer: Sendable {
    let url: URL
    let database: AppDatabase
    let directory: TemporaryDirectory
    private let running: RunningService

    /// Starts a server over a fresh database (the demo learner, no courses) in `directory`.
    static func start(
        directory: TemporaryDirectory = TemporaryDirectory(prefix: "edugo-remote-tests"), accessTokenTTL: Int = 900, port: Int = 0,
        clock: TestClock = TestClock()
    ) async throws -> InProcessServer {
        let hasher = PasswordHasher(rounds: 1_000)
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: hasher, seedCatalog: { [] })
        let running = try await ListeningService.start { onListening in
            try await EduGoServer.application(
                database: database, dataDirectory: directory.url, port: port, accessTokenTTL: accessTokenTTL, passwordHasher: hasher,
                now: { clock.now },
                logger: Logger(label: "edugo-test-server", factory: { _ in SwiftLogNoOpLogHandler() }),
                onListening: onListening
            )
        }
        return InProcessServer(url: running.url, database: database, directory: directory, running: running)
    }

    var port: Int { url.port ?? 0 }

    /// Ends the service as SIGTERM does, gracefully (a client may still hold a connection it
    /// opened before, which no longer answers: the tests that need the port refused use one
    /// nothing listens on).
    func stop() async {
        await running.stop()
    }

    /// Courses put straight into the server's database, as an import would.
    func addCourses(_ entries: [(Course, [Lesson]?)]) throws {
        _ = try database.importCourses(entries: entries.map { CourseEntry(course: $0.0, lessons: $0.1) })
    }

    /// `addCourses`, then waits until the server has read the import from its change log, as
    /// a terminal that reads again on the `catalog` event does: its kept pages are the import's.
    func addCoursesRead(_ entries: [(Course, [Lesson]?)]) async throws {
        try addCourses(entries)
        let newest = try await SQLiteChangeLog(database: database).newestChangeID()
        let metrics = HTTPClient(baseURL: url)
        while try Int64(PrometheusText(try await metrics.get("/metrics")).value("edugo_change_log_read_through")) < newest {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// A wall clock a test moves forward, to expire tokens without waiting; never the same
/// reading twice.
final class TestClock: Sendable {
    private let clock = SteppingClock()

    var now: Date { clock.now() }

    func advance(by seconds: TimeInterval) {
        clock.advance(by: seconds)
    }
}

/// The test process's one HTTP client for its remote stores. AsyncHTTPClient wants every
/// client shut down before it goes; this one lives as long as the process.
let testHTTPClient = RemoteHTTPClient()

// The stores of the tests that are not about time limits measure them on a `ManualClock` no
// test moves (`timeLimitClock:`): with hundreds of tests on a loaded machine's two cooperative
// threads, an in-process server's handler waited past the 10 s limit (CI, 2026-11-27). The
// tests of time limits (RemoteFaultTests, the hostile servers) keep the wall clock. A request
// that truly hangs still fails: the suites have a time limit of 3 minutes.
