import Foundation
import Hummingbird
import ServerTestSupport
import TestSupport

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
}
