import Foundation
import SharedKernel

// MARK: - OperationRepository

extension ContractCase {
    /// Run by every store that applies terminals' queued writes.
    public static let operations: [ContractCase] = [
        ContractCase(port: "operations", name: "applied once: a repeat answers the first outcome; an id reused for another is not applied")
        {
            store in
            let (operations, user) = try await OperationFixture.arrange(store)
            let set = OperationFixture.operation(.favourite(OperationFixture.open, isFavourite: true), secondsAgo: 60, id: "op-set-0001")
            try checkEqual(try await operations.apply(set, userID: user), .applied, "the first time")
            try checkEqual(try await operations.apply(set, userID: user), .applied, "sent again")
            try checkEqual(try await store.favourites.favourites(userID: user).map(\.id), [OperationFixture.open], "one favourite")
            let reused = SyncOperation(id: set.id, time: set.time, kind: .favourite(OperationFixture.open, isFavourite: false))
            try checkEqual(try await operations.apply(reused, userID: user), .conflicting, "another operation under the id")
            try checkEqual(try await store.favourites.favourites(userID: user).map(\.id), [OperationFixture.open], "still a favourite")
            try checkEqual(try await operations.apply(set, userID: user), .applied, "the first one, again")
        },
        ContractCase(port: "operations", name: "the latest time wins per favourite, lesson mark and name, whatever order they arrive in") {
            store in
            let (operations, user) = try await OperationFixture.arrange(store)
            let course = OperationFixture.open
            _ = try await store.enrollments.enroll(userID: user, courseID: course)
            let base = Date()
            let apply = { (kind: OperationKind, ago: Double, node: String) in
                try await operations.apply(
                    SyncOperation(id: .random(), time: HybridTime(base.addingTimeInterval(-ago), node: node), kind: kind), userID: user)
            }
            try checkEqual(try await apply(.favourite(course, isFavourite: false), 10, "b"), .applied, "the later unset")
            try checkEqual(try await apply(.favourite(course, isFavourite: true), 20, "a"), .superseded, "the earlier set, arriving later")
            try checkEqual(try await store.favourites.favourite(userID: user, courseID: course), nil, "not a favourite")
            try checkEqual(try await apply(.lesson(course, number: 1, done: true), 10, "b"), .applied, "the later mark")
            try checkEqual(try await apply(.lesson(course, number: 1, done: false), 20, "a"), .superseded, "the earlier unmark")
            try checkEqual(
                try await store.enrollments.enrolledCourse(userID: user, courseID: course)?.enrollment.lessonsDone, [1], "lesson 1 done")
            try checkEqual(try await apply(.name("Bea Later"), 10, "b"), .applied, "the later name")
            try checkEqual(try await apply(.name("Ann Earlier"), 20, "a"), .superseded, "the earlier name")
            try checkEqual(try await store.profiles.user(id: user).name, "Bea Later", "the later name holds")
            // One millisecond, two terminals: the node decides, the same way everywhere.
            try checkEqual(try await apply(.name("Di"), 5, "node-b"), .applied, "node b")
            try checkEqual(try await apply(.name("Cy"), 5, "node-a"), .superseded, "node a, same instant")
            try checkEqual(try await store.profiles.user(id: user).name, "Di", "b's name")
        },
        ContractCase(port: "operations", name: "a write through the ports is later than a queued operation made before it") { store in
            let (operations, user) = try await OperationFixture.arrange(store)
            try await store.favourites.setFavourite(true, userID: user, courseID: OperationFixture.open)
            let old = OperationFixture.operation(.favourite(OperationFixture.open, isFavourite: false), secondsAgo: 3_600)
            try checkEqual(try await operations.apply(old, userID: user), .superseded, "an hour-old unset")
            try check(try await store.favourites.favourite(userID: user, courseID: OperationFixture.open) != nil, "still a favourite")
            _ = try await store.profiles.updateName(userID: user, to: "Now Named")
            try checkEqual(
                try await operations.apply(OperationFixture.operation(.name("Old Name"), secondsAgo: 3_600), userID: user), .superseded,
                "an hour-old name")
            try checkEqual(try await store.profiles.user(id: user).name, "Now Named", "the port's name holds")
        },
        ContractCase(port: "operations", name: "a refusal is recorded: the same id is refused again after the course appears") { store in
            let (operations, user) = try await OperationFixture.arrange(store)
            let full = try await operations.apply(OperationFixture.operation(.enroll(OperationFixture.full), secondsAgo: 30), userID: user)
            try checkEqual(full, .refused(.refused(.courseFull(title: "Full House"))), "a full course")
            try checkEqual(try await store.enrollments.enrolledCourse(userID: user, courseID: OperationFixture.full), nil, "not enrolled")
            let later = OperationFixture.operation(.enroll("arrives-later"), secondsAgo: 20, id: "op-later-0001")
            try checkEqual(try await operations.apply(later, userID: user), .refused(.courseNotFound("arrives-later")), "no such course")
            try await store.addCourses([(Contract.course("arrives-later", "Arrives Later"), nil)])
            try checkEqual(try await operations.apply(later, userID: user), .refused(.courseNotFound("arrives-later")), "the first outcome")
            try checkEqual(
                try await store.enrollments.enrolledCourse(userID: user, courseID: "arrives-later"), nil, "a repeat writes nothing")
            let enroll = { (ago: Double) in
                try await operations.apply(OperationFixture.operation(.enroll(OperationFixture.open), secondsAgo: ago), userID: user)
            }
            try checkEqual(try await enroll(15), .applied, "enrolled")
            try checkEqual(try await enroll(10), .superseded, "enrolled already, from another terminal")
            let leave = { (ago: Double) in
                try await operations.apply(OperationFixture.operation(.unenroll(OperationFixture.open), secondsAgo: ago), userID: user)
            }
            try checkEqual(try await leave(5), .applied, "left")
            try checkEqual(try await leave(4), .superseded, "left already")
            let name = OperationFixture.operation(.name("   "), secondsAgo: 3)
            try checkEqual(try await operations.apply(name, userID: user), .refused(.invalidName(.empty)), "a blank name")
        },
        ContractCase(port: "operations", name: "a refused mark or name leaves no time behind: an earlier one that can be applied is") {
            store in
            let (operations, user) = try await OperationFixture.arrange(store)
            let course = OperationFixture.open
            let mark = { (ago: Double) in
                try await operations.apply(
                    OperationFixture.operation(.lesson(course, number: 1, done: true), secondsAgo: ago), userID: user)
            }
            guard case .refused = try await mark(10) else {
                throw ContractFailure(description: "a mark in a course not enrolled in is refused")
            }
            _ = try await store.enrollments.enroll(userID: user, courseID: course)
            try checkEqual(try await mark(20), .applied, "an earlier mark, once enrolled")
            try checkEqual(
                try await store.enrollments.enrolledCourse(userID: user, courseID: course)?.enrollment.lessonsDone, [1], "lesson 1 done")
            let name = { (raw: String, ago: Double) in
                try await operations.apply(OperationFixture.operation(.name(raw), secondsAgo: ago), userID: user)
            }
            try checkEqual(try await name("   ", 10), .refused(.invalidName(.empty)), "a blank name")
            try checkEqual(try await name("Earlier Name", 20), .applied, "an earlier name")
            try checkEqual(try await store.profiles.user(id: user).name, "Earlier Name", "the earlier name holds")
        },
        ContractCase(port: "operations", name: "two terminals' reviews of one card both count once, in time order, in any order of arrival")
        {
            store in
            let (operations, user, ref, initial, t0) = try await OperationFixture.arrangeCard(store)
            let good = SyncOperation(
                id: .random(), time: HybridTime(t0.now.addingTimeInterval(86_400), node: "node-b"),
                kind: .review(ref, grade: .good, secondsFromGMT: 0))
            let again = SyncOperation(
                id: .random(), time: HybridTime(t0.now.addingTimeInterval(43_200), node: "node-a"),
                kind: .review(ref, grade: .again, secondsFromGMT: 0))
            try checkEqual(try await operations.apply(good, userID: user), .applied, "a day later, arriving first")
            try checkEqual(try await operations.apply(again, userID: user), .applied, "half a day later, arriving second")
            try checkEqual(try await operations.apply(again, userID: user), .applied, "sent again")
            let expected = LearningRules.replay(
                [ReviewGrading(.again, at: again.time.date), ReviewGrading(.good, at: good.time.date)], from: initial, ref: ref,
                userID: user)
            try checkEqual(try await OperationFixture.card(store, user, ref), expected.schedule, "the replay in time order")
            // An undo is an operation too: that grade leaves the log, the later one is replayed.
            let undo = SyncOperation(
                id: .random(), time: HybridTime(t0.now.addingTimeInterval(90_000), node: "node-a"),
                kind: .undoReview(ref, reviewedAt: again.time.date))
            try checkEqual(try await operations.apply(undo, userID: user), .applied, "undone")
            let after = LearningRules.replay([ReviewGrading(.good, at: good.time.date)], from: initial, ref: ref, userID: user)
            try checkEqual(try await OperationFixture.card(store, user, ref), after.schedule, "good alone, replayed")
            let twice = SyncOperation(id: .random(), time: undo.time, kind: undo.kind)
            try checkEqual(try await operations.apply(twice, userID: user), .refused(.nothingToUndo(ref)), "nothing left to undo")
            // A grade from before the card was answered had no card to grade.
            let before = SyncOperation(
                id: .random(), time: HybridTime(t0.now.addingTimeInterval(-86_400), node: "node-c"),
                kind: .review(ref, grade: .easy, secondsFromGMT: 0))
            try checkEqual(try await operations.apply(before, userID: user), .refused(.notDue(ref)), "a day before the answer")
            try checkEqual(try await OperationFixture.card(store, user, ref), after.schedule, "the card unchanged")
        },
        ContractCase(port: "operations", name: "grades are scheduled by the settings they were given with, in a replay too") { store in
            let (operations, user, ref, initial, t0) = try await OperationFixture.arrangeCard(store)
            let mine = try ReviewSettings(retention: 0.8, learningSteps: [30], relearningSteps: [120, 900])
            let again = SyncOperation(
                id: .random(), time: HybridTime(t0.now.addingTimeInterval(86_400), node: "node-a"),
                kind: .review(ref, grade: .again, secondsFromGMT: 0), settings: mine)
            let good = SyncOperation(
                id: .random(), time: HybridTime(t0.now.addingTimeInterval(43_200), node: "node-b"),
                kind: .review(ref, grade: .good, secondsFromGMT: 0), settings: mine)
            try checkEqual(try await operations.apply(again, userID: user), .applied, "a day later, arriving first")
            try checkEqual(try await operations.apply(good, userID: user), .applied, "half a day later: the later one replayed")
            let gradings = [ReviewGrading(.good, at: good.time.date), ReviewGrading(.again, at: again.time.date)]
            let expected = LearningRules.replay(gradings, from: initial, ref: ref, userID: user, settings: mine).schedule
            let byDefaults = LearningRules.replay(gradings, from: initial, ref: ref, userID: user).schedule
            try check(expected != byDefaults, "the settings schedule these grades otherwise than the defaults")
            try checkEqual(try await OperationFixture.card(store, user, ref), expected, "replayed by the learner's settings")
        },
        ContractCase(
            port: "operations", name: "a grade given through the review route, sent again as an operation (its answer lost), counts once"
        ) { store in
            let (operations, user, ref, initial, t0) = try await OperationFixture.arrangeCard(store)
            // Due by then, and before the store's now (a time ahead of it would be clamped to it).
            let day = t0.adding(seconds: 86_400 * 4)
            let direct = try await store.learning?.review(ref, grade: .good, userID: user, at: day)
            let again = SyncOperation(
                id: .random(), time: HybridTime(day.now.addingTimeInterval(0.4), node: "node-a"),
                kind: .review(ref, grade: .good, secondsFromGMT: 0))
            try checkEqual(try await operations.apply(again, userID: user), .superseded, "the same grade in the same second")
            try checkEqual(try await OperationFixture.card(store, user, ref), direct, "graded once")
            let other = SyncOperation(
                id: .random(), time: HybridTime(day.now.addingTimeInterval(0.4), node: "node-b"),
                kind: .review(ref, grade: .hard, secondsFromGMT: 0))
            try checkEqual(try await operations.apply(other, userID: user), .applied, "another grade in that second is another grade")
            try checkEqual(try await OperationFixture.card(store, user, ref)?.reviews, 2, "both")
            _ = initial
        },
        ContractCase(port: "operations", name: "the earliest answer is kept, its card replayed; a bad answer is refused") { store in
            let (operations, user, time) = try await OperationFixture.arrangeLearning(store)
            let ref = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            let answer = { (chosen: Set<Int>, offset: Double) in
                try await operations.apply(
                    SyncOperation(
                        id: .random(), time: HybridTime(time.now.addingTimeInterval(offset), node: "node-a"),
                        kind: .answer(ref, chosen: chosen, secondsFromGMT: 0)), userID: user)
            }
            try checkEqual(try await answer([0], 0), .applied, "a wrong answer")
            try checkEqual(try await answer([1], -3_600), .applied, "a right one, given an hour before")
            try checkEqual(try await answer([2], 3_600), .superseded, "a later one")
            let kept = try await store.learning?.answers(userID: user, courseID: LearningFixture.id).first
            try checkEqual(kept?.chosen, [1], "the earliest")
            try checkEqual(kept?.isRight, true, "right")
            try checkEqual(try await answer([7], 0), .refused(.invalidAnswer(ref)), "not a choice")
        },
        ContractCase(
            port: "operations",
            name: "a batch ends as its operations sent one at a time: grades around answers, marks around joining, a favourite made again"
        ) { store in
            // A store may decide a batch in memory (PostgreSQL does): one learner gets these one
            // by one, another (signed in after, as a terminal of theirs would be) as one batch,
            // and both must end the same.
            let (operations, first, t0) = try await OperationFixture.arrangeLearning(store)
            try await store.addCourses([(Contract.course(OperationFixture.open, "Open Course", capacity: 10), Contract.threeLessons)])
            let (q0, q1) = (
                QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0),
                QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 1)
            )
            let (course, open) = (LearningFixture.id, OperationFixture.open)
            let hour = 3_600.0
            let kinds: [(hours: Double, kind: OperationKind)] = [
                (0, .answer(q0, chosen: [1], secondsFromGMT: 0)), (24, .review(q0, grade: .good, secondsFromGMT: 0)),
                (-1, .answer(q0, chosen: [0], secondsFromGMT: 0)), (48, .review(q0, grade: .again, secondsFromGMT: 0)),
                (49, .undoReview(q0, reviewedAt: t0.now.addingTimeInterval(24 * hour))), (1, .lesson(course, number: 1, done: true)),
                (2, .lesson(course, number: 1, done: false)), (1, .favourite(open, isFavourite: true)),
                (2, .favourite(open, isFavourite: false)), (3, .enroll(open)), (3, .favourite(open, isFavourite: true)),
                (4, .lesson(course, number: 1, done: true)), (5, .lesson(open, number: 1, done: true)), (1, .name("First Name")),
                (2, .name("Second Name")), (6, .answer(q1, chosen: [0, 2], secondsFromGMT: 0)),
                (7, .review(q1, grade: .hard, secondsFromGMT: 0)),
                (8, .lesson(course, number: 2, done: true)), (9, .lesson(course, number: 3, done: true)),
                (10, .review(q0, grade: .easy, secondsFromGMT: 0)),
            ]
            func made(_ node: String) -> [SyncOperation] {
                kinds.map {
                    SyncOperation(id: .random(), time: HybridTime(t0.now.addingTimeInterval($0.hours * hour), node: node), kind: $0.kind)
                }
            }
            /// What the learner's operations left: cards, answers, enrollments, favourites,
            /// name, streak.
            func state(_ user: UserID) async throws -> [String] {
                var state: [String] = []
                for ref in [q0, q1] {
                    state.append("card \(ref): \(String(describing: try await OperationFixture.card(store, user, ref)))")
                }
                let answers = try await store.learning?.answers(userID: user, courseID: course) ?? []
                state.append("answers: \(answers.map { $0.chosen.sorted() })")
                for enrolled in try await store.enrollments.enrolledCourses(userID: user).sorted(by: { $0.course.id < $1.course.id }) {
                    let enrollment = enrolled.enrollment
                    state.append(
                        "\(enrolled.course.id) \(enrollment.status) \(enrollment.lessonsDone.sorted()) "
                            + "\(String(describing: enrollment.completedAt)) \(enrollment.lastActiveAt)")
                }
                state.append("favourites: \(try await store.favourites.favourites(userID: user).map(\.id))")
                state.append("name: \(try await store.profiles.user(id: user).name)")
                let day = LearnerDay(t0.now.addingTimeInterval(72 * hour), secondsFromGMT: 0)
                state.append("habit: \(String(describing: try await store.learning?.habit(userID: user, on: day, secondsFromGMT: 0)))")
                return state
            }
            var oneByOne: [OperationOutcome] = []
            for operation in made("one") { oneByOne.append(try await operations.apply(operation, userID: first)) }
            try checkEqual(oneByOne.filter { $0 == .applied }.count, kinds.count, "every one applied (the test would show little else)")
            let expected = try await state(first)

            _ = try await store.accounts.register(name: "Second Learner", email: "batch-b@example.com", password: "password-1")
            let second = try await store.sessions.signIn(email: "batch-b@example.com", password: "password-1").id
            _ = try await store.enrollments.enroll(userID: second, courseID: course)
            let batch = await operations.apply(made("all"), userID: second)
            try check(batch.failure == nil, "the batch applied: \(String(describing: batch.failure))")
            try checkEqual(batch.outcomes, oneByOne.map(Optional.some), "the same outcomes")
            let got = try await state(second)
            for (line, wanted) in zip(got, expected) { try checkEqual(line, wanted, "one by one and in a batch") }
            try checkEqual(got.count, expected.count, "as many enrollments")
        },
        ContractCase(port: "operations", name: "a time far ahead of the store's clock counts as the store's now") { store in
            let (operations, user) = try await OperationFixture.arrange(store)
            let future = SyncOperation(
                id: .random(), time: HybridTime(milliseconds: 9_999_999_999_000, node: "skewed")!, kind: .name("From The Future"))
            try checkEqual(try await operations.apply(future, userID: user), .applied, "applied, at the store's now")
            try await Task.sleep(for: .milliseconds(5))
            let soon = SyncOperation(
                id: .random(), time: HybridTime(Date().addingTimeInterval(2), node: "honest"), kind: .name("Made Later"))
            try checkEqual(try await operations.apply(soon, userID: user), .applied, "a later operation wins")
            try checkEqual(try await store.profiles.user(id: user).name, "Made Later", "the later name")
            // Two writes of one skewed terminal, both far ahead, in one batch: both clamped to
            // the same now, the second (made later, sent later) still wins.
            let ahead = { (milliseconds: Int64, name: String) in
                SyncOperation(id: .random(), time: HybridTime(milliseconds: milliseconds, node: "skewed")!, kind: .name(name))
            }
            let batch = [ahead(9_999_999_999_100, "Skewed First"), ahead(9_999_999_999_200, "Skewed Second")]
            let (outcomes, failure) = await operations.apply(batch, userID: user)
            try checkEqual(outcomes, [.applied, .applied], "both applied, in order")
            try check(failure == nil, "no failure")
            try checkEqual(try await store.profiles.user(id: user).name, "Skewed Second", "the one made later")
        },
    ]
}

enum OperationFixture {
    static let open: CourseID = "ops-open"
    static let full: CourseID = "ops-full"

    static func arrange(_ store: ContractStore) async throws -> (any OperationRepository, UserID) {
        guard let operations = store.operations else { throw ContractFailure(description: "the store has no OperationRepository") }
        try await store.addCourses([
            (Contract.course(open, "Open Course", capacity: 10), nil),
            (Contract.course(full, "Full House", capacity: 1, enrolled: 1), nil),
        ])
        return (operations, try await Contract.demo(store).id)
    }

    static func operation(_ kind: OperationKind, secondsAgo: Double, node: String = "node-a", id: String? = nil) -> SyncOperation {
        SyncOperation(
            id: id.flatMap(OperationID.init) ?? .random(), time: HybridTime(Date().addingTimeInterval(-secondsAgo), node: node), kind: kind)
    }

    static func arrangeLearning(_ store: ContractStore) async throws -> (any OperationRepository, UserID, StudyTime) {
        guard let operations = store.operations else { throw ContractFailure(description: "the store has no OperationRepository") }
        let (_, user, time) = try await LearningFixture.arrange(store)
        return (operations, user, time)
    }

    /// Question 0 of the learning course answered right at `t0` through the port, and the
    /// card that answer starts.
    static func arrangeCard(_ store: ContractStore) async throws -> (any OperationRepository, UserID, QuestionRef, CardSchedule, StudyTime)
    {
        let (operations, user, t0) = try await arrangeLearning(store)
        let ref = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
        _ = try await store.learning?.answer([1], to: ref, userID: user, at: t0)
        let initial = try LearningRules.answer(
            [1], to: ref, question: LearningFixture.first.questions[0], holdsPlace: true, existing: nil, userID: user, time: t0
        ).newCard
        guard let initial else { throw ContractFailure(description: "no card from the first answer") }
        return (operations, user, ref, initial, t0)
    }

    /// The card's schedule as the deck shows it, years on, when every card is due.
    static func card(_ store: ContractStore, _ user: UserID, _ ref: QuestionRef) async throws -> CardSchedule? {
        let later = StudyTime(noonOf: LearnerDay(iso: "2036-01-01")!, secondsFromGMT: 0)
        return try await store.learning?.reviewDeck(userID: user, at: later, limit: 10).cards.first { $0.ref == ref }?.schedule
    }
}
