import Foundation
import Hummingbird
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// A stand-in EduGo server whose catalog is `count` courses named `Course N of the
    /// stand-in`, and whose every catalog read waits at `gate`: a test holds the loading
    /// screen for as long as it needs, however loaded the machine.
    static func startStandInCatalog(count: Int, gate: Gate) async throws -> RunningService {
        let router = Router()
        RouterServer.addSignIn(to: router)
        router.get("/v1/courses") { _, _ in
            await gate.wait()
            let courses = (1...count).map { key in
                """
                {"id": "stand-in-\(key)", "key": "\(key)", "title": "Course \(key) of the stand-in", "instructor": "Ana",
                 "category": null, "level": "beginner", "duration_minutes": 60, "price": 10, "currency": "EUR", "capacity": 40,
                 "enrolled_count": 1, "tags": [], "prerequisite_id": null, "active": true, "description": "A course.", "lesson_count": 1}
                """
            }
            return RouterServer.json(
                #"{"courses": [\#(courses.joined(separator: ", "))], "next": null, "previous": null, "total": \#(count), "total_is_lower_bound": false}"#
            )
        }
        return try await RouterServer.start(router)
    }

    /// `tui --server` on the stand-in: its calls may wait at the gate far past the app's 10 s
    /// limit, which would end a held read as `Cannot reach` on a loaded machine.
    static func standInSession(_ server: RunningService) throws -> TmuxSession {
        try TmuxSession(arguments: ["--server", server.url.absoluteString], environment: ["EDUGO_REMOTE_TIME_LIMIT_S": "600"])
    }

    /// Returns once `count` calls in all have reached `gate`; records an issue and throws if
    /// they have not within 20 s (a generous wait, as the screen's are: no timing claim).
    static func waitForArrivals(
        _ count: Int, at gate: Gate, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while await gate.arrivals < count {
            guard ContinuousClock.now < deadline else {
                Issue.record("only \(await gate.arrivals) of \(count) calls reached the stand-in", sourceLocation: sourceLocation)
                throw TmuxSession.TmuxError.timedOut("calls at the stand-in")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
