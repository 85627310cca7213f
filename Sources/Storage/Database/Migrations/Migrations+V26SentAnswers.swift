import GRDB

extension Migrations {
    /// `v26-sent-answers`: an answer the server has, kept in a terminal's outbox (marked sent,
    /// no longer counted or sent) until the replica holds the server's checked answer, so it
    /// never shows unanswered between the two.
    static func v26SentAnswers(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE outbox ADD COLUMN sent INTEGER NOT NULL DEFAULT 0")
    }
}
