import Foundation
import Platform
import ServerTestSupport
import SharedKernel
import Storage
import TestSupport
import Testing

/// Races, signals and kills, against the real server process.
@Suite("Server: races, shutdown and kills", .serialized)
struct ServerFaultTests {
    @Test("one seat left and 50 learners asking at once: exactly one enrollment")
    func lastSeat() async throws {
        let directory = try await ServerProcess.preparedDirectory(
            learners: 50,
            courses: [
                CourseEntry(course: .fixture(id: "last-seat", title: "Last Seat", capacity: 10, enrolledCount: 9))
            ])
        // 50 learners from one test address: no per-address limit on their sign-ins.
        let server = try await ServerProcess(directory: directory, arguments: ["--rate-limit", "0"])
        let base = HTTPClient(baseURL: server.baseURL)
        var clients: [HTTPClient] = []
        for number in 1...50 {
            clients.append(try await base.signedIn(email: "learner\(number)@example.com", password: "password-\(number)").0)
        }

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in clients {
                group.addTask { try await client.send("PUT", "/v1/me/enrollments/last-seat").status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let course = try await base.get("/v1/courses/last-seat")

        #expect(statuses.filter { $0 == 201 }.count == 1)
        #expect(statuses.filter { $0 == 409 }.count == 49)
        #expect(course.json["enrolled_count"] as? Int == 10)
    }

    @Test("SIGTERM: a request in flight still gets its answer, then the server exits 0")
    func gracefulShutdown() async throws {
        // The real password cost: a sign-in that is still hashing when the signal comes.
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory(), arguments: ["--log-level", "debug"])
        let client = HTTPClient(baseURL: server.baseURL)
        _ = try await client.send(
            "POST", "/v1/accounts", json: ["name": "Slow Hash", "email": "slow@example.com", "password": "a real password"])

        async let signIn = client.send("POST", "/v1/sessions", json: ["email": "slow@example.com", "password": "a real password"])
        try await server.waitForLog("\"message\":\"request started\"", after: 2)
        server.signal(SIGTERM)
        let answer = try await signIn
        let status = await server.waitForExit()

        #expect(answer.status == 201)
        #expect(status == 0)
    }

    @Test("kill -9 during a burst of writes: every write that was answered is there after a restart")
    func killDuringWrites() async throws {
        let directory = try await ServerProcess.preparedDirectory()
        let server = try await ServerProcess(directory: directory)
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let page = try await client.get("/v1/courses?limit=60")
        let ids = (page.json["courses"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }

        let acknowledged = await withTaskGroup(of: String?.self) { group in
            for (index, id) in ids.enumerated() {
                group.addTask {
                    if index == 20 { server.signal(SIGKILL) }
                    let answer = try? await client.send("PUT", "/v1/me/favourites/\(id)")
                    return answer?.status == 204 ? id : nil
                }
            }
            return await group.reduce(into: Set<String>()) { if let id = $1 { $0.insert(id) } }
        }
        _ = await server.waitForExit()
        let restarted = try await ServerProcess(directory: directory)
        let (again, _) = try await HTTPClient(baseURL: restarted.baseURL).signedIn()
        let stored = Set(
            ((try await again.get("/v1/me/favourites")).json["courses"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })

        #expect(acknowledged.isSubset(of: stored), "lost: \(acknowledged.subtracting(stored))")
        #expect(acknowledged.count < ids.count, "the kill came before the burst ended")
    }
}
