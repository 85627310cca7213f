import Foundation
import Platform
import ServerTestSupport
import SharedKernel
import Storage
import TestSupport
import Testing

/// SPEC's API table, row by row, against the real `edugo-server` on a loopback port.
@Suite("Server: the API table", .serialized)
struct APITests {
    @Test("GET /health answers ok; an unknown address is a JSON 404, a wrong method 405 with Allow; every answer carries its request id")
    func health() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let client = HTTPClient(baseURL: server.baseURL)

        let health = try await client.get("/health")
        let nowhere = try await client.get("/v2/nowhere")
        let wrongMethod = try await client.send("DELETE", "/v1/me")

        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "ok")
        #expect(nowhere.status == 404)
        #expect(nowhere.errorCode == "not_found")
        #expect(health.headers["x-request-id"]?.isEmpty == false)
        #expect(wrongMethod.status == 405 && wrongMethod.headers["allow"] == "GET, PATCH")
    }

    @Test("a fresh data directory is seeded by the server itself: the catalog and the demo learner")
    func seedsItself() async throws {
        let server = try await ServerProcess()
        let client = HTTPClient(baseURL: server.baseURL)

        let (signedIn, session) = try await client.signedIn()
        let page = try await signedIn.get("/v1/courses?limit=100")

        #expect((session["user"] as? [String: Any])?["name"] as? String == "Demo Learner")
        #expect((page.json["courses"] as? [Any])?.count == 64)
        #expect(page.json["total"] as? Int == 64)
        #expect(FileManager.default.fileExists(atPath: server.directory.url.appendingPathComponent("access-token.key").path))
        let mode =
            try FileManager.default.attributesOfItem(atPath: server.directory.url.appendingPathComponent("access-token.key").path)[
                .posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("POST /v1/accounts: 201 a session; 409 email_taken; 422 names the field at fault")
    func accounts() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let client = HTTPClient(baseURL: server.baseURL)

        let created = try await client.send(
            "POST", "/v1/accounts", json: ["name": "Zoë Hart", "email": "zoe@example.com", "password": "long enough"])
        let taken = try await client.send(
            "POST", "/v1/accounts", json: ["name": "Zoë", "email": "zoe@example.com", "password": "long enough"])
        let badName = try await client.send(
            "POST", "/v1/accounts", json: ["name": "", "email": "x@example.com", "password": "long enough"])
        let badEmail = try await client.send("POST", "/v1/accounts", json: ["name": "X", "email": "nope", "password": "long enough"])
        let weak = try await client.send("POST", "/v1/accounts", json: ["name": "X", "email": "x@example.com", "password": "short"])

        #expect(created.status == 201)
        #expect((created.json["user"] as? [String: Any])?["email"] as? String == "zoe@example.com")
        #expect(created.json["expires_in"] as? Int == 900)
        #expect(taken.status == 409 && taken.errorCode == "email_taken")
        #expect(taken.json["message"] as? String == "An account with that email already exists")
        #expect(badName.status == 422 && badName.errorCode == "invalid_name")
        #expect(badEmail.status == 422 && badEmail.errorCode == "invalid_email")
        #expect(weak.status == 422 && weak.errorCode == "weak_password")
        // The new account works for sign-in straight away.
        _ = try await client.signedIn(email: "zoe@example.com", password: "long enough")
    }

    @Test("POST /v1/sessions: 201 for the right password; 401 invalid_credentials alike for a wrong one and an unknown email")
    func signIn() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let client = HTTPClient(baseURL: server.baseURL)

        let (_, session) = try await client.signedIn()
        let wrong = try await client.send("POST", "/v1/sessions", json: ["email": "demo@edugo.dev", "password": "wrong-password"])
        let unknown = try await client.send("POST", "/v1/sessions", json: ["email": "nobody@edugo.dev", "password": "wrong-password"])

        #expect(session["refresh_token"] is String)
        #expect(wrong.status == 401 && wrong.errorCode == "invalid_credentials")
        #expect(unknown.status == 401 && unknown.body == wrong.body)
        // Nothing secret reaches the log.
        #expect(!server.log.contains("edugo-demo"))
        #expect(!server.log.contains(session["access_token"] as! String))
        #expect(!server.log.contains(session["refresh_token"] as! String))
        #expect(server.log.split(separator: "\n").allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    }

    @Test("an error's message follows Accept-Language, its code never does")
    func acceptLanguage() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let client = HTTPClient(baseURL: server.baseURL)
        let wrong = ["email": "demo@edugo.dev", "password": "wrong-password"]

        let spanish = try await client.send("POST", "/v1/sessions", json: wrong, headers: ["Accept-Language": "es-ES,es;q=0.9,en;q=0.8"])
        let english = try await client.send("POST", "/v1/sessions", json: wrong, headers: ["Accept-Language": "fr, en;q=0.5"])
        let none = try await client.send("POST", "/v1/sessions", json: wrong)

        #expect(spanish.errorCode == "invalid_credentials" && english.errorCode == "invalid_credentials")
        #expect(spanish.message == "Correo o contraseña incorrectos")
        #expect(english.message == "Invalid email or password" && none.message == english.message)
    }

    @Test("refresh rotates: the new token works once; presenting a used one ends the whole sign-in")
    func refreshRotationAndReuse() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let client = HTTPClient(baseURL: server.baseURL)
        let (_, session) = try await client.signedIn()
        let first = session["refresh_token"] as! String

        let rotated = try await client.send("POST", "/v1/sessions/refresh", json: ["refresh_token": first])
        let second = rotated.json["refresh_token"] as? String ?? ""
        let reused = try await client.send("POST", "/v1/sessions/refresh", json: ["refresh_token": first])
        let afterReuse = try await client.send("POST", "/v1/sessions/refresh", json: ["refresh_token": second])

        #expect(rotated.status == 200)
        #expect(second != first && !second.isEmpty)
        #expect((rotated.json["user"] as? [String: Any])?["email"] as? String == "demo@edugo.dev")
        #expect(reused.status == 401 && reused.errorCode == "unauthorized")
        #expect(afterReuse.status == 401, "the thief's reuse ended the learner's sign-in too")
        // Another sign-in of the same learner is a family of its own, untouched.
        let (_, other) = try await client.signedIn()
        let untouched = try await client.send("POST", "/v1/sessions/refresh", json: ["refresh_token": other["refresh_token"] as! String])
        #expect(untouched.status == 200)
    }

    @Test("DELETE /v1/sessions/current: 204, and that sign-in's refresh token stops working")
    func signOut() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let (client, session) = try await HTTPClient(baseURL: server.baseURL).signedIn()

        let out = try await client.send("DELETE", "/v1/sessions/current")
        let refresh = try await client.send("POST", "/v1/sessions/refresh", json: ["refresh_token": session["refresh_token"] as! String])
        let anonymous = try await HTTPClient(baseURL: server.baseURL).send("DELETE", "/v1/sessions/current")

        #expect(out.status == 204)
        #expect(refresh.status == 401)
        #expect(anonymous.status == 401 && anonymous.errorCode == "unauthorized")
    }

    @Test("tokens: missing, forged (another learner, same signature) or garbage → 401 unauthorized; expired → 401 token_expired")
    func tokens() async throws {
        // Tokens that live an hour for the checks a busy machine must not turn into expiries;
        // another server's, that live a second, for the expiry.
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let shortLived = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(), arguments: ["--access-token-ttl", "1"])
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let (expiring, _) = try await HTTPClient(baseURL: shortLived.baseURL).signedIn()
        let token = try #require(client.token)
        var tampered = client
        // Another learner's id in the payload, the signature left as it was.
        let parts = token.split(separator: ".").map(String.init)
        let payload = try JSONSerialization.jsonObject(with: Data(base64URL: parts[1])) as! [String: Any]
        var forged = payload
        forged["sub"] = "2"
        tampered.token = [parts[0], try JSONSerialization.data(withJSONObject: forged).base64URL, parts[2]].joined(separator: ".")
        var garbage = client
        garbage.token = "not.a.token"

        let fresh = try await client.get("/v1/me")
        let forgedAnswer = try await tampered.get("/v1/me")
        let garbageAnswer = try await garbage.get("/v1/me")
        let missing = try await HTTPClient(baseURL: server.baseURL).get("/v1/me")
        // The short-lived token lives one second: wait for the clock, not for a guess.
        let shortToken = try #require(expiring.token).split(separator: ".").map(String.init)
        let shortPayload = try JSONSerialization.jsonObject(with: Data(base64URL: shortToken[1])) as! [String: Any]
        let expiry = (shortPayload["exp"] as? Double) ?? 0
        while Date().timeIntervalSince1970 <= expiry { try await Task.sleep(for: .milliseconds(50)) }
        let expired = try await expiring.get("/v1/me")

        #expect(fresh.status == 200)
        #expect(forgedAnswer.status == 401 && forgedAnswer.errorCode == "unauthorized")
        #expect(garbageAnswer.status == 401 && garbageAnswer.errorCode == "unauthorized")
        #expect(missing.status == 401 && missing.errorCode == "unauthorized")
        #expect(expired.status == 401 && expired.errorCode == "token_expired")
    }

    @Test("after 10 failed sign-ins for one email: 429 rate_limited with Retry-After, even for the right password; other emails go on")
    func rateLimit() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory(learners: 1))
        let client = HTTPClient(baseURL: server.baseURL)

        for _ in 1...10 {
            let failed = try await client.send("POST", "/v1/sessions", json: ["email": "demo@edugo.dev", "password": "wrong-password"])
            #expect(failed.status == 401)
        }
        let limited = try await client.send("POST", "/v1/sessions", json: ["email": "demo@edugo.dev", "password": "edugo-demo"])
        let otherEmail = try await client.send("POST", "/v1/sessions", json: ["email": "learner1@example.com", "password": "password-1"])

        #expect(limited.status == 429 && limited.errorCode == "rate_limited")
        let retryAfter = Int(limited.headers["retry-after"] ?? "") ?? 0
        #expect((1...900).contains(retryAfter))
        #expect(otherEmail.status == 201)
    }

    @Test("GET /v1/courses pages in catalog order both ways, with total, keys, query and filters; limit is clamped")
    func catalogPages() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let client = HTTPClient(baseURL: server.baseURL)

        var forward: [String] = []
        var page = try await client.get("/v1/courses?limit=10")
        #expect(page.json["previous"] == nil || page.json["previous"] is NSNull)
        while true {
            forward += (page.json["courses"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            guard let next = page.json["next"] as? String else { break }
            page = try await client.get("/v1/courses?limit=10&after=\(next)")
        }
        var backward: [String] = []
        var lastKey: String?
        page = try await client.get("/v1/courses?limit=100")
        lastKey = (page.json["courses"] as? [[String: Any]])?.last?["key"] as? String
        let lastID = (page.json["courses"] as? [[String: Any]])?.last?["id"] as? String
        while let key = lastKey {
            page = try await client.get("/v1/courses?limit=7&before=\(key)")
            backward = (page.json["courses"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } + backward
            lastKey = page.json["previous"] as? String
        }
        let all = try await client.get("/v1/courses?limit=100")
        let allIDs = (all.json["courses"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }

        #expect(forward.count == 64)
        #expect(forward == allIDs)
        #expect(backward + [lastID!] == allIDs)
        #expect(all.json["total"] as? Int == 64 && all.json["total_is_lower_bound"] as? Bool == false)

        let clamped = try await client.get("/v1/courses?limit=1000")
        let tiny = try await client.get("/v1/courses?limit=0")
        #expect((clamped.json["courses"] as? [Any])?.count == 64)
        #expect((tiny.json["courses"] as? [Any])?.count == 1)

        let search = try await client.get("/v1/courses?query=docker")
        let filtered = try await client.get("/v1/courses?query=level:advanced%20is:free&limit=100")
        let unknown = try await client.get("/v1/courses?query=is:nonsense")
        let badKey = try await client.get("/v1/courses?after=abc")
        #expect((search.json["courses"] as? [[String: Any]])?.first?["id"] as? String == "docker-essentials")
        let filteredCourses = filtered.json["courses"] as? [[String: Any]] ?? []
        #expect(filteredCourses.allSatisfy { $0["level"] as? String == "advanced" && ($0["price"] as? Double) == 0 })
        #expect(filtered.json["total"] as? Int == filteredCourses.count)
        #expect(unknown.status == 400 && (unknown.json["message"] as? String)?.contains("is:nonsense") == true)
        #expect(badKey.status == 400 && badKey.errorCode == "invalid_request")
    }

    @Test("GET /v1/courses/{id}: the course with its lessons; 404 course_not_found")
    func course() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let client = HTTPClient(baseURL: server.baseURL)

        let found = try await client.get("/v1/courses/agile-scrum")
        let missing = try await client.get("/v1/courses/no-such-course")

        #expect(found.status == 200)
        #expect(found.json["title"] as? String == "Agile and Scrum in Real Teams")
        let lessons = found.json["lessons"] as? [[String: Any]] ?? []
        #expect(lessons.count == found.json["lesson_count"] as? Int && !lessons.isEmpty)
        #expect(lessons.compactMap { $0["minutes"] as? Int }.reduce(0, +) == found.json["duration_minutes"] as? Int)
        #expect(missing.status == 404 && missing.errorCode == "course_not_found")
    }

    @Test("GET and PATCH /v1/me: the learner; a new name by SPEC's rules, 422 invalid_name")
    func me() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()

        let me = try await client.get("/v1/me")
        let renamed = try await client.send("PATCH", "/v1/me", json: ["name": "  Zoë 山田 "])
        let empty = try await client.send("PATCH", "/v1/me", json: ["name": "   "])
        let after = try await client.get("/v1/me")

        #expect(me.status == 200 && me.json["email"] as? String == "demo@edugo.dev")
        #expect(me.json["member_since"] is String)
        #expect(renamed.status == 200 && renamed.json["name"] as? String == "Zoë 山田")
        #expect(empty.status == 422 && empty.errorCode == "invalid_name" && empty.json["message"] as? String == "Enter a name")
        #expect(after.json["name"] as? String == "Zoë 山田")
    }

    @Test("enrollments: PUT 201 then 409 already_enrolled; every refusal's code; lessons to Completed; DELETE 204 then 404")
    func enrollments() async throws {
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(courses: [
                CourseEntry(course: .fixture(id: "full-course", title: "Full Course", capacity: 3, enrolledCount: 3)),
                CourseEntry(course: .fixture(id: "closed-course", title: "Closed Course", isActive: false)),
                CourseEntry(course: .fixture(id: "needs-full", title: "Needs Full", prerequisiteID: "full-course")),
                CourseEntry(
                    course: .fixture(id: "two-lessons", title: "Two Lessons"),
                    lessons: [Lesson(title: "One", minutes: 5), Lesson(title: "Two", minutes: 5)]),
            ]))
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()

        let enrolled = try await client.send("PUT", "/v1/me/enrollments/two-lessons")
        let again = try await client.send("PUT", "/v1/me/enrollments/two-lessons")
        let full = try await client.send("PUT", "/v1/me/enrollments/full-course")
        let closed = try await client.send("PUT", "/v1/me/enrollments/closed-course")
        let prerequisite = try await client.send("PUT", "/v1/me/enrollments/needs-full")
        let missing = try await client.send("PUT", "/v1/me/enrollments/no-such-course")
        #expect(enrolled.status == 201 && enrolled.json["status"] as? String == "active")
        #expect((enrolled.json["course"] as? [String: Any])?["id"] as? String == "two-lessons")
        #expect(again.status == 409 && again.errorCode == "already_enrolled")
        #expect(full.status == 409 && full.errorCode == "course_full" && full.json["message"] as? String == "Full Course is full")
        #expect(closed.status == 409 && closed.errorCode == "course_inactive")
        #expect(
            prerequisite.status == 409 && prerequisite.errorCode == "prerequisite_missing"
                && prerequisite.json["message"] as? String == "Complete Full Course first")
        #expect(missing.status == 404 && missing.errorCode == "course_not_found")

        let one = try await client.send("PUT", "/v1/me/enrollments/two-lessons/lessons/1")
        let oneAgain = try await client.send("PUT", "/v1/me/enrollments/two-lessons/lessons/1")
        let two = try await client.send("PUT", "/v1/me/enrollments/two-lessons/lessons/2")
        let beyond = try await client.send("PUT", "/v1/me/enrollments/two-lessons/lessons/3")
        #expect(one.status == 200 && one.json["lessons_done"] as? [Int] == [1])
        #expect(oneAgain.status == 200 && oneAgain.json["lessons_done"] as? [Int] == [1])
        #expect(two.json["status"] as? String == "completed" && two.json["completed_at"] is String)
        #expect(beyond.status == 404 && beyond.errorCode == "lesson_not_found")
        let undone = try await client.send("DELETE", "/v1/me/enrollments/two-lessons/lessons/2")
        #expect(undone.status == 200 && undone.json["status"] as? String == "active" && undone.json["lessons_done"] as? [Int] == [1])
        #expect(undone.json["completed_at"] as? String == two.json["completed_at"] as? String, "the completion is history")

        let list = try await client.get("/v1/me/enrollments")
        let ids = (list.json["enrollments"] as? [[String: Any]] ?? []).compactMap { ($0["course"] as? [String: Any])?["id"] as? String }
        #expect(list.status == 200 && ids.first == "two-lessons")

        let left = try await client.send("DELETE", "/v1/me/enrollments/two-lessons")
        let leftAgain = try await client.send("DELETE", "/v1/me/enrollments/two-lessons")
        let notEnrolledLesson = try await client.send("PUT", "/v1/me/enrollments/two-lessons/lessons/1")
        #expect(left.status == 204)
        #expect(leftAgain.status == 404 && leftAgain.errorCode == "not_enrolled")
        #expect(notEnrolledLesson.status == 404 && notEnrolledLesson.errorCode == "not_enrolled")
    }

    @Test("course_ids narrows the learner's lists to a page's courses: the learner's own, 1 to 200 valid ids, else 400")
    func listsAmongIDs() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory(learners: 1))
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let (other, _) = try await HTTPClient(baseURL: server.baseURL).signedIn(email: "learner1@example.com", password: "password-1")
        for id in ["swift-testing", "agile-scrum"] {
            _ = try await client.send("PUT", "/v1/me/enrollments/\(id)")
            _ = try await client.send("PUT", "/v1/me/favourites/\(id)")
        }
        func ids(_ response: HTTPAnswer, _ key: String) -> [String] {
            (response.json[key] as? [[String: Any]] ?? []).compactMap { item in
                ((item["course"] as? [String: Any]) ?? item)["id"] as? String
            }
        }

        let enrolled = try await client.get("/v1/me/enrollments?course_ids=agile-scrum,no-such-course,swift-fundamentals")
        let favourites = try await client.get("/v1/me/favourites?course_ids=swift-testing,swift-cli,agile-scrum")
        let othersView = try await other.get("/v1/me/favourites?course_ids=agile-scrum")
        let many = try await client.get("/v1/me/favourites?course_ids=" + (0...200).map { "c\($0)" }.joined(separator: ","))
        let most = try await client.get("/v1/me/enrollments?course_ids=" + (1...200).map { "c\($0)" }.joined(separator: ","))
        let invalid = try await client.get("/v1/me/enrollments?course_ids=agile-scrum,a%20b")
        let empty = try await client.get("/v1/me/favourites?course_ids=")
        let anonymous = try await HTTPClient(baseURL: server.baseURL).get("/v1/me/enrollments?course_ids=agile-scrum")

        // The demo learner starts with enrollments of their own: the whole list decides.
        let whole = ids(try await client.get("/v1/me/enrollments"), "enrollments")
        #expect(whole.contains("agile-scrum") && whole.count > 2)
        let expected = whole.filter { ["agile-scrum", "swift-fundamentals"].contains($0) }
        #expect(enrolled.status == 200 && ids(enrolled, "enrollments") == expected, "in the whole list's order")
        #expect(favourites.status == 200 && ids(favourites, "courses") == ["agile-scrum", "swift-testing"], "catalog order")
        #expect(othersView.status == 200 && ids(othersView, "courses") == [])
        #expect(many.status == 400 && many.errorCode == "invalid_request")
        #expect(most.status == 200 && ids(most, "enrollments") == [])
        #expect(invalid.status == 400 && invalid.errorCode == "invalid_request")
        #expect(empty.status == 400 && empty.errorCode == "invalid_request", "present but empty: not the whole list")
        #expect(anonymous.status == 401)
    }

    @Test(
        "one favourite: GET gives it with the course; 404 not_found when it is not one (a deleted one is gone), course_not_found for no course; the learner's own only"
    )
    func oneFavourite() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory(learners: 1))
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let (other, _) = try await HTTPClient(baseURL: server.baseURL).signedIn(email: "learner1@example.com", password: "password-1")

        let before = try await client.get("/v1/me/favourites/docker-essentials")
        _ = try await client.send("PUT", "/v1/me/favourites/docker-essentials")
        let after = try await client.get("/v1/me/favourites/docker-essentials")
        let othersView = try await other.get("/v1/me/favourites/docker-essentials")
        let unknown = try await client.get("/v1/me/favourites/no-such-course")
        let anonymous = try await HTTPClient(baseURL: server.baseURL).get("/v1/me/favourites/docker-essentials")
        _ = try await client.send("DELETE", "/v1/me/favourites/docker-essentials")
        let deleted = try await client.get("/v1/me/favourites/docker-essentials")

        #expect(before.status == 404 && before.errorCode == "not_found")
        #expect(after.status == 200 && after.json["favourite"] as? Bool == true)
        #expect((after.json["course"] as? [String: Any])?["id"] as? String == "docker-essentials")
        #expect(othersView.status == 404 && othersView.errorCode == "not_found")
        #expect(deleted.status == 404 && deleted.errorCode == "not_found")
        #expect(unknown.status == 404 && unknown.errorCode == "course_not_found")
        #expect(anonymous.status == 401)
        server.directory.remove()
    }

    @Test("one enrollment: GET as the list has it, a completed course left as dropped with its date, else 404 not_enrolled")
    func oneEnrollment() async throws {
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(courses: [
                CourseEntry(course: .fixture(id: "one-lesson", title: "One Lesson")),
                CourseEntry(course: .fixture(id: "other-course", title: "Other Course")),
            ]))
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()

        let none = try await client.get("/v1/me/enrollments/one-lesson")
        let unknown = try await client.get("/v1/me/enrollments/no-such-course")
        let badID = try await client.get("/v1/me/enrollments/bad%20id")
        _ = try await client.send("PUT", "/v1/me/enrollments/other-course")
        _ = try await client.send("DELETE", "/v1/me/enrollments/other-course")
        let leftBeforeCompleting = try await client.get("/v1/me/enrollments/other-course")
        _ = try await client.send("PUT", "/v1/me/enrollments/one-lesson")
        let enrolled = try await client.get("/v1/me/enrollments/one-lesson")
        let completed = try await client.send("PUT", "/v1/me/enrollments/one-lesson/lessons/1")
        _ = try await client.send("DELETE", "/v1/me/enrollments/one-lesson")
        let history = try await client.get("/v1/me/enrollments/one-lesson")
        let list = (try await client.get("/v1/me/enrollments").json["enrollments"] as? [[String: Any]] ?? []).filter {
            ["one-lesson", "other-course"].contains(($0["course"] as? [String: Any])?["id"] as? String)
        }

        #expect(none.status == 404 && none.errorCode == "not_enrolled")
        #expect(unknown.status == 404 && unknown.errorCode == "not_enrolled")
        #expect(badID.status == 400)
        #expect(leftBeforeCompleting.status == 404 && leftBeforeCompleting.errorCode == "not_enrolled")
        #expect(enrolled.status == 200 && enrolled.json["status"] as? String == "active")
        #expect((enrolled.json["course"] as? [String: Any])?["id"] as? String == "one-lesson")
        #expect(history.status == 200 && history.json["status"] as? String == "dropped")
        #expect(history.json["completed_at"] as? String == completed.json["completed_at"] as? String)
        #expect(history.json["lessons_done"] as? [Int] == [1])
        #expect(list.map { $0["status"] as? String } == ["dropped"])
    }

    @Test("favourites: PUT and DELETE are idempotent 204s; the list follows in catalog order")
    func favourites() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()

        let added = try await client.send("PUT", "/v1/me/favourites/docker-essentials")
        let addedAgain = try await client.send("PUT", "/v1/me/favourites/docker-essentials")
        _ = try await client.send("PUT", "/v1/me/favourites/agile-scrum")
        let list = try await client.get("/v1/me/favourites")
        let removed = try await client.send("DELETE", "/v1/me/favourites/docker-essentials")
        let removedAgain = try await client.send("DELETE", "/v1/me/favourites/docker-essentials")
        let unknown = try await client.send("PUT", "/v1/me/favourites/no-such-course")
        let unknownRemoved = try await client.send("DELETE", "/v1/me/favourites/no-such-course")
        let after = try await client.get("/v1/me/favourites")
        let mine = try await client.get("/v1/courses?query=is:favourite")

        #expect(added.status == 204 && addedAgain.status == 204)
        #expect((list.json["courses"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["agile-scrum", "docker-essentials"])
        #expect(removed.status == 204 && removedAgain.status == 204)
        #expect(unknown.status == 404 && unknown.errorCode == "course_not_found")
        #expect(unknownRemoved.status == 204, "idempotent: an unknown course is not a favourite")
        #expect((after.json["courses"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["agile-scrum"])
        #expect((mine.json["courses"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["agile-scrum"])
    }

    @Test("bad input is never a 500: 413 over 64 KiB, 400 broken JSON or a wrong content type, 422 a wrong shape")
    func badInput() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let json = ["Content-Type": "application/json"]

        let large = try await client.send("POST", "/v1/sessions", body: Data(repeating: 0x61, count: 65 * 1024), headers: json)
        let broken = try await client.send("POST", "/v1/sessions", body: Data("{\"email\":".utf8), headers: json)
        let wrongType = try await client.send("PATCH", "/v1/me", body: Data("{\"name\": 5}".utf8), headers: json)
        let missingField = try await client.send("POST", "/v1/sessions", body: Data("{\"email\": \"a@b.cd\"}".utf8), headers: json)
        let extraField = try await client.send("PATCH", "/v1/me", body: Data("{\"name\": \"A\", \"role\": \"admin\"}".utf8), headers: json)
        let form = try await client.send(
            "POST", "/v1/sessions", body: Data("email=a".utf8), headers: ["Content-Type": "application/x-www-form-urlencoded"])
        let badLesson = try await client.send("PUT", "/v1/me/enrollments/agile-scrum/lessons/abc")
        let badID = try await client.send("PUT", "/v1/me/favourites/%1B%5B2J")

        #expect(large.status == 413 && large.errorCode == "payload_too_large")
        #expect(broken.status == 400 && broken.errorCode == "invalid_request")
        #expect(wrongType.status == 422 && wrongType.errorCode == "invalid_request")
        #expect(missingField.status == 422)
        #expect(extraField.status == 422)
        #expect(form.status == 400)
        #expect(badLesson.status == 400)
        #expect(badID.status == 400)
        #expect(!server.log.contains("\"status\":\"500\""))
    }

    @Test("edugo-server import-courses adds courses to the server's database; a bad file changes nothing")
    func importCourses() async throws {
        let directory = TemporaryDirectory(prefix: "edugo-server-tests")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("courses.json")
        try Data(
            """
            [{"id": "rust-101", "title": "Rust from Zero", "instructor": "Ferris Crab", "level": "beginner",
              "duration_minutes": 60, "price": 0, "currency": "EUR", "description": "Ownership, gently."}]
            """.utf8
        ).write(to: file)

        let imported = try await BuiltProduct.run("edugo-server", ["import-courses", file.path, "--data-dir", directory.path])
        let refused = try await BuiltProduct.run("edugo-server", ["import-courses", "/no/such/file.json", "--data-dir", directory.path])
        let server = try await ServerProcess(directory: TemporaryDirectory(url: directory.url))
        let course = try await HTTPClient(baseURL: server.baseURL).get("/v1/courses/rust-101")

        #expect(imported.status == 0 && imported.output.contains("1 added"))
        #expect(refused.status == 1 && refused.errors.hasPrefix("edugo-server: "))
        #expect(course.status == 200 && course.json["title"] as? String == "Rust from Zero")
    }
}

extension Data {
    init(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self = Data(base64Encoded: base64) ?? Data()
    }

    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
            of: "=", with: "")
    }
}
