import Foundation
import SharedKernel

// MARK: - ChangeLog

extension ContractCase {
    static let changeLog: [ContractCase] = [
        ContractCase(port: "changes", name: "each write notes what it changed, in the order committed, after the newest id") { store in
            guard let log = store.changes else { return }
            try await store.addCourses([(Contract.course("ch-1", "Change One"), Contract.threeLessons)])
            let demo = try await Contract.demo(store)
            let start = try await log.newestChangeID()

            _ = try await store.enrollments.enroll(userID: demo.id, courseID: "ch-1")
            _ = try await store.enrollments.setLesson(2, done: true, userID: demo.id, courseID: "ch-1")
            try await store.favourites.setFavourite(true, userID: demo.id, courseID: "ch-1")
            _ = try await store.profiles.updateName(userID: demo.id, to: "Renamed Learner")
            try await store.enrollments.unenroll(userID: demo.id, courseID: "ch-1")

            let events = try await Contract.events(log, after: start, for: demo.id)
            try checkEqual(
                events.map(\.change),
                [
                    .enrollment(demo.id, "ch-1"), .course("ch-1"), .enrollment(demo.id, "ch-1"), .favourite(demo.id, "ch-1"),
                    .profile(demo.id), .enrollment(demo.id, "ch-1"), .course("ch-1"),
                ], "changes")
            try check(zip(events, events.dropFirst()).allSatisfy { $0.id < $1.id }, "ids rise: \(events.map(\.id))")
            try checkEqual(try await log.newestChangeID(), events.last?.id ?? -1, "newest")
        },
        ContractCase(port: "changes", name: "a refused write and a favourite asked for as it is already note nothing") { store in
            guard let log = store.changes else { return }
            try await store.addCourses([(Contract.course("ch-full", "Full Course", capacity: 1, enrolled: 1), nil)])
            let demo = try await Contract.demo(store)
            try await store.favourites.setFavourite(true, userID: demo.id, courseID: "ch-full")
            let start = try await log.newestChangeID()

            try await checkThrows(.refused(.courseFull(title: "Full Course"))) { () async throws(AppError) in
                try await store.enrollments.enroll(userID: demo.id, courseID: "ch-full")
            }
            try await store.favourites.setFavourite(true, userID: demo.id, courseID: "ch-full")

            try checkEqual(try await Contract.events(log, after: start, for: nil), [], "changes")
        },
        ContractCase(port: "changes", name: "a learner reads their own changes and the catalog's, not another learner's") { store in
            guard let log = store.changes else { return }
            try await store.addCourses([(Contract.course("ch-2", "Change Two"), nil)])
            _ = try await store.accounts.register(name: "Other Learner", email: "other-changes@edugo.dev", password: "password-1")
            // Each learner writes signed in as themselves (a remote store acts only as its learner).
            let other = try await store.sessions.signIn(email: "other-changes@edugo.dev", password: "password-1")
            let start = try await log.newestChangeID()

            try await store.favourites.setFavourite(true, userID: other.id, courseID: "ch-2")
            _ = try await store.enrollments.enroll(userID: other.id, courseID: "ch-2")
            let demo = try await Contract.demo(store)
            try await store.favourites.setFavourite(true, userID: demo.id, courseID: "ch-2")
            try await store.addCourses([(Contract.course("ch-3", "Change Three"), nil)])

            try checkEqual(
                try await Contract.events(log, after: start, for: demo.id).map(\.change),
                [.course("ch-2"), .favourite(demo.id, "ch-2"), .catalog], "demo's")
            try checkEqual(
                try await Contract.events(log, after: start, for: nil).map(\.change),
                [
                    .favourite(other.id, "ch-2"), .enrollment(other.id, "ch-2"), .course("ch-2"), .favourite(demo.id, "ch-2"),
                    .catalog,
                ], "everyone's")
        },
        ContractCase(port: "changes", name: "reading resumes after an id, a page at a time; an id past the newest is a gap") { store in
            guard let log = store.changes else { return }
            try await store.addCourses([(Contract.course("ch-4", "Change Four"), nil)])
            let demo = try await Contract.demo(store)
            let start = try await log.newestChangeID()
            for isFavourite in [true, false, true] {
                try await store.favourites.setFavourite(isFavourite, userID: demo.id, courseID: "ch-4")
            }

            guard case .events(let first) = try await log.changes(after: start, for: demo.id, limit: 2) else {
                throw ContractFailure(description: "a gap right after the newest id")
            }
            guard case .events(let rest) = try await log.changes(after: first.last?.id ?? start, for: demo.id, limit: 10) else {
                throw ContractFailure(description: "a gap inside what is kept")
            }
            try checkEqual(first.count, 2, "first page")
            try checkEqual(rest.count, 1, "the rest")
            let newest = try await log.newestChangeID()
            try checkEqual(try await log.changes(after: newest + 10, for: demo.id, limit: 10), .gap(newest: newest), "past the newest")
        },
        ContractCase(port: "changes", name: "ending a sign-in notes it once, for its learner") { store in
            guard let log = store.changes else { return }
            let demo = try await Contract.demo(store)
            try await store.refreshTokens.issue(
                RefreshTokenRecord(hash: "ch-h1", family: "ch-f1", userID: demo.id, expiresAt: Date().addingTimeInterval(3600)), now: Date()
            )
            let start = try await log.newestChangeID()

            try await store.refreshTokens.revoke(family: "ch-f1")
            try await store.refreshTokens.revoke(family: "ch-f1")

            try checkEqual(try await Contract.events(log, after: start, for: demo.id).map(\.change), [.signedOut(demo.id, signIn: "ch-f1")])
        },
    ]
}

extension Contract {
    /// The changes after `id` (all of them, read a page of 2 at a time), or a failure for a gap.
    static func events(_ log: any ChangeLog, after id: Int64, for learner: UserID?) async throws -> [ChangeEvent] {
        var events: [ChangeEvent] = []
        var last = id
        while true {
            guard case .events(let page) = try await log.changes(after: last, for: learner, limit: 2) else {
                throw ContractFailure(description: "a gap after \(last)")
            }
            events += page
            guard let newest = page.last, page.count == 2 else { return events }
            last = newest.id
        }
    }
}
