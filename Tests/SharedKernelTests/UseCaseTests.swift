import Foundation
import SharedKernel
import Synchronization
import TestSupport
import Testing

@Suite("Enrollment changes: what each store writes, decided once")
struct EnrollmentChangeTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let earlier = Date(timeIntervalSince1970: 1_790_000_000)
    static let learner = UserID(7)

    @Test(
        "enrolling: a first time joins; a dropped enrollment comes back with its lessons, completed only if it was and still is",
        arguments: [
            (nil, 3, EnrollmentWrite.join(userID: learner, courseID: "swift-101", at: now)),
            (Enrollment.fixture(status: .dropped), 3, .rejoin(Enrollment.fixture().id, courseID: "swift-101", at: now, status: .active)),
            (
                .fixture(status: .dropped, lessonsDone: [1, 2]), 3,
                .rejoin(Enrollment.fixture().id, courseID: "swift-101", at: now, status: .active)
            ),
            (
                .fixture(status: .dropped, lessonsDone: [1, 2, 3], completedAt: earlier), 3,
                .rejoin(Enrollment.fixture().id, courseID: "swift-101", at: now, status: .completed)
            ),
            // A syllabus that grew since: the completion stays history, the course is in progress.
            (
                .fixture(status: .dropped, lessonsDone: [1, 2, 3], completedAt: earlier), 4,
                .rejoin(Enrollment.fixture().id, courseID: "swift-101", at: now, status: .active)
            ),
            // Every lesson done, but never completed (a syllabus that shrank): in progress, as before leaving.
            (
                .fixture(status: .dropped, lessonsDone: [1, 2]), 2,
                .rejoin(Enrollment.fixture().id, courseID: "swift-101", at: now, status: .active)
            ),
        ] as [(Enrollment?, Int, EnrollmentWrite)])
    func enroll(existing: Enrollment?, lessons: Int, expected: EnrollmentWrite) throws {
        let facts = EnrollmentFacts(course: .fixture(lessonCount: lessons), enrollment: existing)

        #expect(try Enroll(userID: Self.learner, courseID: "swift-101", now: Self.now).decide(facts) == expected)
    }

    @Test(
        "a prerequisite completed once stays met: left, or a lesson of it marked not done since",
        arguments: [
            (nil, false),
            (Enrollment.fixture(status: .active, lessonsDone: [1]), false),
            (.fixture(status: .dropped, lessonsDone: [1]), false),
            (.fixture(status: .completed, lessonsDone: [1], completedAt: earlier), true),
            (.fixture(status: .dropped, lessonsDone: [1], completedAt: earlier), true),
            (.fixture(status: .active, lessonsDone: [], completedAt: earlier), true),
        ] as [(Enrollment?, Bool)])
    func enrollAfterPrerequisite(prerequisite: Enrollment?, met: Bool) {
        let base = Course.fixture(id: "base", title: "Base")
        let facts = EnrollmentFacts(course: .fixture(prerequisiteID: "base"), enrollment: nil, prerequisite: (base, prerequisite))
        let sut = Enroll(userID: Self.learner, courseID: "swift-101", now: Self.now)

        let result = Result(catching: { () throws(AppError) -> EnrollmentWrite in try sut.decide(facts) })

        let joined = EnrollmentWrite.join(userID: Self.learner, courseID: "swift-101", at: Self.now)
        #expect(result == (met ? .success(joined) : .failure(.refused(.prerequisiteNotCompleted(prerequisiteTitle: "Base")))))
    }

    @Test("enrolling checks the rules in their one order, and a missing course is named")
    func enrollRefusals() {
        let base = Course.fixture(id: "base", title: "Base")
        let locked = EnrollmentFacts(
            course: .fixture(prerequisiteID: "base"), enrollment: nil, prerequisite: (base, .fixture(status: .active)))
        let met = EnrollmentFacts(
            course: .fixture(prerequisiteID: "base"), enrollment: nil,
            prerequisite: (base, .fixture(status: .completed, completedAt: Self.now)))
        let sut = Enroll(userID: Self.learner, courseID: "swift-101", now: Self.now)

        #expect(throws: AppError.refused(.prerequisiteNotCompleted(prerequisiteTitle: "Base"))) { try sut.decide(locked) }
        #expect(throws: Never.self) { try sut.decide(met) }
        #expect(throws: AppError.refused(.alreadyEnrolled(title: "Swift 101"))) {
            try sut.decide(EnrollmentFacts(course: .fixture(isActive: false), enrollment: .fixture()))
        }
        #expect(throws: AppError.courseNotFound("swift-101")) { try sut.decide(nil) }
    }

    @Test("leaving needs an enrollment that holds a place")
    func unenroll() throws {
        let sut = Unenroll(userID: Self.learner, courseID: "swift-101")

        #expect(
            try sut.decide(EnrollmentFacts(course: .fixture(), enrollment: .fixture()))
                == .leave(Enrollment.fixture().id, courseID: "swift-101"))
        #expect(throws: AppError.notEnrolled("swift-101")) {
            try sut.decide(EnrollmentFacts(course: .fixture(), enrollment: .fixture(status: .dropped)))
        }
        #expect(throws: AppError.notEnrolled("swift-101")) { try sut.decide(nil) }
    }

    @Test("the last lesson done completes the course; undoing one makes it active again, its completion kept as history")
    func markLesson() throws {
        let course = Course.fixture(lessonCount: 2)
        let oneDone = Enrollment.fixture(lessonsDone: [1])
        let complete = Enrollment.fixture(status: .completed, lessonsDone: [1, 2], completedAt: Self.now)

        let finishing = try MarkLesson(2, done: true, userID: Self.learner, courseID: course.id, now: Self.now)
            .decide(EnrollmentFacts(course: course, enrollment: oneDone))
        let undoing = try MarkLesson(2, done: false, userID: Self.learner, courseID: course.id, now: Self.now)
            .decide(EnrollmentFacts(course: course, enrollment: complete))

        #expect(finishing == .markLesson(oneDone.id, number: 2, done: true, at: Self.now, status: .completed, completedAt: Self.now))
        #expect(undoing == .markLesson(complete.id, number: 2, done: false, at: Self.now, status: .active, completedAt: Self.now))
        #expect(throws: AppError.noSuchLesson(course.id, 3)) {
            try MarkLesson(3, done: true, userID: Self.learner, courseID: course.id, now: Self.now).decide(
                EnrollmentFacts(course: course, enrollment: oneDone))
        }
    }

    @Test("joining or leaving locks the seats; marking locks only the learner's progress")
    func access() {
        #expect(Enroll(userID: Self.learner, courseID: "x", now: Self.now).access == .seats)
        #expect(Unenroll(userID: Self.learner, courseID: "x").access == .seats)
        #expect(MarkLesson(1, done: true, userID: Self.learner, courseID: "x", now: Self.now).access == .progress)
    }
}

@Suite("Accounts: sign-in and sign-up over any store")
struct AccountServiceTests {
    @Test("a wrong password and an unknown email are refused alike, each after one hash check")
    func refusals() async throws {
        let (sut, store, hasher) = makeSUT()
        store.add(email: "ana@edugo.dev", hash: "hash:right password")

        await #expect(throws: AppError.invalidCredentials) {
            try await sut.authenticate(email: "ana@edugo.dev", password: "wrong password")
        }
        await #expect(throws: AppError.invalidCredentials) {
            try await sut.authenticate(email: "nobody@edugo.dev", password: "right password")
        }
        #expect(hasher.verified == ["hash:right password", "decoy"])
        #expect(try await sut.authenticate(email: " ANA@edugo.dev ", password: "right password").email == "ana@edugo.dev")
    }

    @Test("sign-up validates first, refuses a taken address before it hashes, and stores the hash only")
    func register() async throws {
        let (sut, store, hasher) = makeSUT()
        store.add(email: "ana@edugo.dev", hash: "hash:x")

        await #expect(
            throws: AppError.invalidAccount(AccountRejection(field: .password, message: "Use a password of 8 or more characters"))
        ) {
            try await sut.register(name: "Ben", email: "ben@edugo.dev", password: "short")
        }
        await #expect(throws: AppError.emailTaken) { try await sut.register(name: "Ana", email: "Ana@EduGo.dev", password: "long enough") }
        let ben = try await sut.register(name: " Ben ", email: "ben@edugo.dev", password: "long enough")

        #expect(hasher.hashed == ["long enough"])
        #expect(ben.name == "Ben")
        #expect(store.inserted == [AccountRules.emailKey("ben@edugo.dev"): "hash:long enough"])
    }

    private func makeSUT() -> (AccountService, StubAccountStore, SpyHasher) {
        let store = StubAccountStore()
        let hasher = SpyHasher()
        return (AccountService(store: store, hasher: hasher, now: { Date(timeIntervalSince1970: 0) }), store, hasher)
    }
}

/// Accounts by email key; `insertLearner` refuses a taken key as every store's transaction does.
private final class StubAccountStore: AccountStore, Sendable {
    private let accounts = Mutex<[String: StoredAccount]>([:])
    private let insertions = Mutex<[String: String]>([:])

    var inserted: [String: String] { insertions.withLock { $0 } }

    func add(email: String, hash: String) {
        let user = User(id: UserID(1), name: "Ana", email: email, memberSince: Date(timeIntervalSince1970: 0))
        accounts.withLock { $0[AccountRules.emailKey(email)] = StoredAccount(user: user, passwordHash: hash) }
    }

    func account(emailKey: String) async throws(AppError) -> StoredAccount? {
        accounts.withLock { $0[emailKey] }
    }

    func insertLearner(_ account: NewAccount, emailKey: String, passwordHash: String, createdAt: Date) async throws(AppError) -> User {
        let user = User(id: UserID(2), name: account.name, email: account.email, memberSince: createdAt)
        try accounts.withLock { (stored: inout [String: StoredAccount]) throws(AppError) in
            guard stored[emailKey] == nil else { throw .emailTaken }
            stored[emailKey] = StoredAccount(user: user, passwordHash: passwordHash)
        }
        insertions.withLock { $0[emailKey] = passwordHash }
        return user
    }
}

/// "hash:" + the password; records what it hashed and which hashes it checked against.
private final class SpyHasher: PasswordHashing, Sendable {
    private let calls = Mutex<(hashed: [String], verified: [String])>(([], []))

    var hashed: [String] { calls.withLock { $0.hashed } }
    var verified: [String] { calls.withLock { $0.verified } }
    let decoyHash = "decoy"

    func hashPassword(_ password: String) async throws -> String {
        calls.withLock { $0.hashed.append(password) }
        return "hash:" + password
    }

    func verifyPassword(_ password: String, against stored: String) async -> Bool {
        calls.withLock { $0.verified.append(stored) }
        return stored == "hash:" + password
    }
}
