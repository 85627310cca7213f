import Foundation
import SharedKernel

/// A seeded simulation of one learner's terminals offline for a week, then syncing through a
/// network that drops acknowledgements, sends batches twice, and interleaves the terminals in
/// any order (each terminal's queue stays in its order, as a terminal sends it). Checked after:
/// every operation has one outcome and a repeat answers it again; a second store fed the same
/// operations in another interleaving, once each, ends the same; every review counts once (each
/// card is the replay of the reviews applied and not undone); each favourite, lesson mark and
/// the name hold the latest write's value.
public struct SyncSimulation: Sendable {
    public let seed: UInt64
    public var terminals = 3
    public var days = 7
    /// Operations each terminal makes a day, at most.
    public var perDay = 120

    public init(seed: UInt64) { self.seed = seed }

    static let course: CourseID = "sim-101"
    static let favourites: [CourseID] = ["sim-a", "sim-b", "sim-c", "sim-d"]
    static let names = ["Ana Sim", "Bo Sim", "Cai Sim", "Dee Sim"]
    /// Lessons 1–2's questions are answered before the week (their cards are reviewed);
    /// lesson 3's are answered during it.
    static let reviewed = (1...2).flatMap { lesson in (0..<3).map { QuestionRef(courseID: course, lesson: lesson, question: $0) } }
    static let answered = (0..<3).map { QuestionRef(courseID: course, lesson: 3, question: $0) }

    /// Runs it on stores `make` opens; throws a `ContractFailure` naming the seed.
    public func run(_ make: @Sendable () async throws -> ContractStore) async throws {
        do {
            try await simulate(make)
        } catch let failure as ContractFailure {
            throw ContractFailure(description: "seed \(seed): \(failure.description)")
        }
    }

    private func simulate(_ make: @Sendable () async throws -> ContractStore) async throws {
        var random = SeededRandomGenerator(seed: seed)
        let start = Date().addingTimeInterval(-Double(days + 1) * 86_400)
        let queues = made(from: start, using: &random)
        let all = queues.flatMap { $0 }

        let first = try await Self.arranged(try await make(), at: start)
        var outcomes: [OperationID: OperationOutcome] = [:]
        var pending = queues.map { $0[...] }
        var sent = 0
        while let terminal = pending.indices.filter({ !pending[$0].isEmpty }).randomElement(using: &random) {
            let batch = Array(pending[terminal].prefix(Int.random(in: 1...25, using: &random)))
            for _ in 0..<(Int.random(in: 0..<8, using: &random) == 0 ? 2 : 1) {
                // As a terminal sends: the batch together (the store's batch path).
                let (answers, failure) = await first.operations.apply(batch, userID: first.user)
                if let failure { throw ContractFailure(description: "a batch failed: \(failure)") }
                for (operation, answer) in zip(batch, answers) {
                    guard let outcome = answer else { throw ContractFailure(description: "\(operation.id) not answered") }
                    sent += 1
                    if let earlier = outcomes[operation.id], earlier != outcome {
                        throw ContractFailure(description: "\(operation.id) answered \(earlier), then \(outcome) when sent again")
                    }
                    outcomes[operation.id] = outcome
                }
            }
            // One batch in five loses its acknowledgement: the terminal sends it again later.
            if Int.random(in: 0..<5, using: &random) != 0 { pending[terminal] = pending[terminal].dropFirst(batch.count) }
        }
        try check(outcomes.count == all.count, "\(all.count - outcomes.count) operations never answered")
        try check(!outcomes.values.contains(.conflicting), "an operation taken for another")
        let snapshot = try await Self.snapshot(first)

        // Everything sent again: the same answers, nothing changed.
        for operation in all {
            let again = try await first.operations.apply(operation, userID: first.user)
            try check(
                again == outcomes[operation.id], "\(operation.id) answered \(again), first \(String(describing: outcomes[operation.id]))")
        }
        try check(try await Self.snapshot(first) == snapshot, "sending everything again changed the store")

        // Another store, another interleaving, each operation once: the same end.
        let second = try await Self.arranged(try await make(), at: start)
        var rest = queues.map { $0[...] }
        while let terminal = rest.indices.filter({ !rest[$0].isEmpty }).randomElement(using: &random) {
            let operation = rest[terminal].removeFirst()
            _ = try await second.operations.apply(operation, userID: second.user)
        }
        let other = try await Self.snapshot(second)
        try check(other == snapshot, "another interleaving ended elsewhere: \(Self.difference(snapshot, other))")

        try Self.checkLatestWins(all, outcomes: outcomes, snapshot: snapshot)
        try Self.checkReviews(all, outcomes: outcomes, snapshot: snapshot, user: first.user, answeredAt: start)
        try check(sent > all.count, "the network never repeated anything (\(sent) sent)")
    }

    // MARK: - The week

    /// Each terminal's queue: what its learner did, in the order it did it, on its own clock
    /// (skewed by up to five minutes), at whole seconds of its own residue so no two
    /// terminals grade one card in the same second.
    private func made(from start: Date, using random: inout SeededRandomGenerator) -> [[SyncOperation]] {
        (0..<terminals).map { terminal in
            var clock = HybridClock(node: "term-\(terminal)")
            let skew = Double([0, -90, 300][terminal % 3])
            var queue: [SyncOperation] = []
            var myReviews: [(QuestionRef, Date)] = []
            for day in 1...days {
                var second = Int64(start.timeIntervalSince1970) + Int64(day * 86_400) + Int64(terminal)
                for _ in 0..<Int.random(in: perDay / 2...perDay, using: &random) {
                    second += 3 * Int64.random(in: 1...200, using: &random)
                    let now = Date(timeIntervalSince1970: Double(second) + skew)
                    let kind: OperationKind
                    switch Int.random(in: 0..<100, using: &random) {
                    case 0..<20: kind = .favourite(Self.favourites.randomElement(using: &random)!, isFavourite: Bool.random(using: &random))
                    case 20..<35:
                        kind = .lesson(Self.course, number: Int.random(in: 1...3, using: &random), done: Bool.random(using: &random))
                    case 35..<42: kind = .name(Self.names.randomElement(using: &random)!)
                    case 42..<50:
                        kind = .answer(
                            Self.answered.randomElement(using: &random)!, chosen: [Int.random(in: 0..<3, using: &random)],
                            secondsFromGMT: 3_600)
                    case 50..<92:
                        let ref = Self.reviewed.randomElement(using: &random)!
                        kind = .review(ref, grade: ReviewGrade.allCases.randomElement(using: &random)!, secondsFromGMT: 3_600)
                    default:
                        guard let index = myReviews.indices.randomElement(using: &random) else { continue }
                        let (ref, at) = myReviews.remove(at: index)
                        kind = .undoReview(ref, reviewedAt: at)
                    }
                    let time = clock.tick(now: now)
                    if case .review(let ref, _, _) = kind {
                        myReviews.append((ref, Date(timeIntervalSince1970: time.date.timeIntervalSince1970.rounded(.down))))
                    }
                    queue.append(SyncOperation(id: .random(using: &random), time: time, kind: kind))
                }
            }
            return queue
        }
    }

    // MARK: - Stores

    struct Arranged {
        let store: ContractStore
        let operations: any OperationRepository
        let user: UserID
    }

    /// The courses, the learner enrolled, lessons 1–2's questions answered right at `start`.
    private static func arranged(_ store: ContractStore, at start: Date) async throws -> Arranged {
        guard let operations = store.operations, let learning = store.learning else {
            throw ContractFailure(description: "the store has no OperationRepository or LearningRepository")
        }
        let question = Question(prompt: "Which?", choices: ["A", "B", "C"], correct: [1], explanation: "B.")
        let lessons = (1...3).map {
            Lesson(
                title: "Lesson \($0)", minutes: 10, content: LessonContent(body: "Text \($0)", questions: [question, question, question]))
        }
        try await store.addCourses(
            [(Contract.course(course, "Simulation 101", capacity: nil), lessons)]
                + favourites.map { (Contract.course($0, "Fav \($0)"), nil) })
        let user = try await Contract.demo(store).id
        _ = try await store.enrollments.enroll(userID: user, courseID: course)
        for ref in reviewed { _ = try await learning.answer([1], to: ref, userID: user, at: StudyTime(now: start, secondsFromGMT: 3_600)) }
        return Arranged(store: store, operations: operations, user: user)
    }

    struct Snapshot: Equatable {
        var favourites: [CourseID]
        var name: String
        var lessonsDone: Set<Int>
        var answers: [QuestionRef: Set<Int>]
        var cards: [QuestionRef: CardSchedule]
    }

    private static func snapshot(_ arranged: Arranged) async throws -> Snapshot {
        let (store, user) = (arranged.store, arranged.user)
        let far = StudyTime(noonOf: LearnerDay(iso: "2040-01-01")!, secondsFromGMT: 0)
        let deck = try await store.learning?.reviewDeck(userID: user, at: far, limit: 100).cards ?? []
        let answers = try await store.learning?.answers(userID: user, courseID: course) ?? []
        return Snapshot(
            favourites: try await store.favourites.favourites(userID: user).map(\.id).sorted { $0.rawValue < $1.rawValue },
            name: try await store.profiles.user(id: user).name,
            lessonsDone: try await store.enrollments.enrolledCourse(userID: user, courseID: course)?.enrollment.lessonsDone ?? [],
            answers: Dictionary(uniqueKeysWithValues: answers.map { ($0.ref, $0.chosen) }),
            cards: Dictionary(uniqueKeysWithValues: deck.map { ($0.ref, $0.schedule) }))
    }

    private static func difference(_ a: Snapshot, _ b: Snapshot) -> String {
        var parts: [String] = []
        if a.favourites != b.favourites { parts.append("favourites \(a.favourites) / \(b.favourites)") }
        if a.name != b.name { parts.append("name \(a.name) / \(b.name)") }
        if a.lessonsDone != b.lessonsDone { parts.append("lessons \(a.lessonsDone) / \(b.lessonsDone)") }
        if a.answers != b.answers { parts.append("answers differ") }
        for ref in Set(a.cards.keys).union(b.cards.keys) where a.cards[ref] != b.cards[ref] {
            parts.append("card \(ref.lesson).\(ref.question): \(String(describing: a.cards[ref])) / \(String(describing: b.cards[ref]))")
        }
        return parts.joined(separator: "; ")
    }

    // MARK: - The rules, checked against what was sent

    private static func checkLatestWins(_ all: [SyncOperation], outcomes: [OperationID: OperationOutcome], snapshot: Snapshot) throws {
        var latest: [String: SyncOperation] = [:]
        for operation in all {
            guard let item = MergeRules.item(of: operation.kind), outcomes[operation.id] != .refused(.invalidName(.empty)) else { continue }
            if latest[item].map({ operation.time > $0.time }) ?? true { latest[item] = operation }
        }
        for (_, operation) in latest {
            switch operation.kind {
            case .favourite(let id, let on):
                try check(snapshot.favourites.contains(id) == on, "favourite \(id) is not the latest write's \(on)")
            case .lesson(_, let number, let done):
                try check(snapshot.lessonsDone.contains(number) == done, "lesson \(number) is not the latest write's \(done)")
            case .name(let name): try check(snapshot.name == name, "the name is \(snapshot.name), the latest write's \(name)")
            default: break
            }
        }
    }

    /// Each card is the replay, in time order, of the reviews applied and not undone: a lost
    /// review or one counted twice changes its count of reviews and its schedule.
    private static func checkReviews(
        _ all: [SyncOperation], outcomes: [OperationID: OperationOutcome], snapshot: Snapshot, user: UserID, answeredAt start: Date
    ) throws {
        var undone = Set<String>()
        for operation in all where outcomes[operation.id] == .applied {
            if case .undoReview(let ref, let at) = operation.kind { undone.insert("\(ref)\(Int64(at.timeIntervalSince1970))") }
        }
        for ref in reviewed {
            let gradings = all.compactMap { operation -> ReviewGrading? in
                guard case .review(ref, let grade, _) = operation.kind, outcomes[operation.id] == .applied else { return nil }
                let grading = ReviewGrading(grade, at: operation.time.date)
                return undone.contains("\(ref)\(Int64(grading.reviewedAt.timeIntervalSince1970))") ? nil : grading
            }.sorted { $0.reviewedAt < $1.reviewedAt }
            let time = StudyTime(now: start, secondsFromGMT: 3_600)
            let question = Question(prompt: "Which?", choices: ["A", "B", "C"], correct: [1], explanation: "B.")
            guard
                let initial = try LearningRules.answer(
                    [1], to: ref, question: question, holdsPlace: true, existing: nil, userID: user, time: time
                ).newCard
            else { throw ContractFailure(description: "no first card") }
            let expected = LearningRules.replay(gradings, from: initial, ref: ref, userID: user).schedule
            try check(
                snapshot.cards[ref] == expected,
                "card \(ref.lesson).\(ref.question): \(String(describing: snapshot.cards[ref]?.reviews)) reviews, expected \(expected.reviews)"
            )
        }
    }
}

extension OperationID {
    static func random(using random: inout SeededRandomGenerator) -> OperationID {
        OperationID(String(format: "sim-%016llx", random.next()))!
    }
}
