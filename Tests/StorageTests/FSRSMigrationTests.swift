import Foundation
import GRDB
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

@Suite("Storage: SM-2 cards carried over to FSRS")
struct FSRSMigrationTests {
    @Test("v20: every SM-2 card keeps its due day (noon UTC), mapped as Anki maps one; the demo's cards are due as they were")
    func carriedOver() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let today = LearnerDay(iso: "2026-11-24")!
        // The database as v19 left it: the demo's SM-2 answers in it.
        do {
            let pool = try DatabasePool(path: directory.url.appendingPathComponent(AppDatabase.fileName).path)
            try Migrations.migrator(passwordHasher: .fast, seedCatalog: { try BuiltInCatalog.load() }, today: today)
                .migrate(pool, upTo: "v19-catalog-orders")
            let rows = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM answer WHERE due_day IS NOT NULL") }
            #expect(rows == 30, "the demo's SM-2 answers: 21 in Linux, 9 in Swift")
            try pool.close()
        }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, today: today)
        let demo = try await database.signInDemo().id
        let sut = SQLiteLearningRepository(database: database)

        // SM-2 had lessons 1–3 of each course due today, the rest over the next days.
        let deck = try await sut.reviewDeck(userID: demo, at: StudyTime(noonOf: today, secondsFromGMT: 0), limit: 100)
        #expect(deck.dueCount == 18 && deck.newCount == 0 && deck.learningCount == 0)
        #expect(deck.cards.allSatisfy { $0.schedule.card.due == Date(timeIntervalSince1970: Double(today.number * 86_400 + 43_200)) })
        let expected = CardSchedule.fromSM2(repetitions: 1, easeMillis: 2_500, intervalDays: 1, dueDay: today)
        #expect(deck.cards.first { $0.ref.question == 1 && $0.ref.lesson == 1 }?.schedule.card.stability == expected.card.stability)
        let later = try await sut.reviewDeck(userID: demo, at: StudyTime(noonOf: today.adding(days: 4), secondsFromGMT: 0), limit: 100)
        #expect(later.dueCount == 30, "every card by the day SM-2 had the last one due")
    }
}
