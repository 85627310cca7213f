import Foundation
import GRDB
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

/// The local feed: writes through another open database on the same file (as another process
/// makes them) reach a learner's news with nothing but the file's own events to wake it.
@Suite("SQLite change feed")
struct SQLiteChangeFeedTests {
    @Test("another connection's writes arrive as the changes they noted, the learner's and the catalog's, in order")
    func news_otherConnectionWrites_arriveInOrder() async throws {
        let (watched, other, directory) = try makeSUT()
        defer { directory.remove() }
        let demo = try await other.signInDemo()
        var news = SQLiteChangeFeed(database: watched).news(for: demo.id).makeAsyncIterator()

        _ = try await SQLiteEnrollmentRepository(database: other).enroll(userID: demo.id, courseID: "feed-1")
        try await SQLiteFavouritesRepository(database: other).setFavourite(true, userID: demo.id, courseID: "feed-1")

        let changes = try await Self.changes(from: &news, count: 3)
        #expect(changes == [.enrollment(demo.id, "feed-1"), .course("feed-1"), .favourite(demo.id, "feed-1")])
    }

    @Test("what was written before the feed was asked for is not news; another learner's changes never are")
    func news_earlierWritesAndOtherLearners_areNotNews() async throws {
        let (watched, other, directory) = try makeSUT()
        defer { directory.remove() }
        let demo = try await other.signInDemo()
        let stranger = try await other.addLearner("Stranger", email: "stranger@edugo.dev")
        try await SQLiteFavouritesRepository(database: other).setFavourite(true, userID: demo.id, courseID: "feed-1")
        var news = SQLiteChangeFeed(database: watched).news(for: demo.id).makeAsyncIterator()

        try await SQLiteFavouritesRepository(database: other).setFavourite(true, userID: stranger, courseID: "feed-1")
        _ = try await SQLiteProfileRepository(database: other).updateName(userID: demo.id, to: "Renamed")

        #expect(try await Self.changes(from: &news, count: 1) == [.profile(demo.id)])
    }

    @Test("a reader left behind what the log keeps is told to read everything again")
    func news_pastTheRetention_readEverything() async throws {
        let (watched, other, directory) = try makeSUT()
        defer { directory.remove() }
        let demo = try await other.signInDemo()
        var news = SQLiteChangeFeed(database: watched).news(for: demo.id).makeAsyncIterator()

        // The next change gets an id at which the log forgets everything this reader has not read.
        try await other.writer.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO sqlite_sequence (name, seq) VALUES ('change_event', ?)",
                arguments: [1_024 * 200 - 1])
        }
        _ = try await SQLiteProfileRepository(database: other).updateName(userID: demo.id, to: "Renamed")

        #expect(await news.next() == .readEverything)
    }

    // MARK: - Helpers

    /// Two databases open on one file: the one a feed watches and the one another instance writes through.
    private func makeSUT() throws -> (watched: AppDatabase, other: AppDatabase, directory: TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let course = Course(
            id: "feed-1", title: "Feed One", instructor: "Ana Ruiz", category: "Test", level: .beginner, durationMinutes: 30,
            price: Price(minorUnits: 0, currency: "EUR"), capacity: nil, enrolledCount: 0, tags: [], prerequisiteID: nil,
            isActive: true, description: "A course for the feed.")
        let watched = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [CourseEntry(course: course)] })
        let other = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })
        return (watched, other, directory)
    }

    /// The next `count` changes, across as many pieces of news as they come in.
    private static func changes(
        from news: inout AsyncStream<ChangeNews>.Iterator, count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [Change] {
        var changes: [Change] = []
        while changes.count < count {
            guard let next = await news.next() else {
                Issue.record("the feed ended", sourceLocation: sourceLocation)
                return changes
            }
            guard case .changed(let more) = next else {
                Issue.record("unexpected \(next)", sourceLocation: sourceLocation)
                return changes
            }
            changes += more
        }
        return changes
    }
}
