import Foundation
import Logging
import Platform
import PostgresNIO
import SharedKernel

extension PostgresDatabase {
    /// Brings the schema up to date and seeds a new database once. Safe when several servers
    /// start at once: the whole of it runs in one transaction under an advisory lock, so the
    /// second server waits, then finds every version applied and the seed in place.
    public func migrate(seed: @Sendable () throws -> PostgresSeed) async throws(AppError) {
        try await migrate(seed: seed, through: Int.max)
    }

    /// `migrate`, up to `last` only: a test writes rows as an older schema had them, then
    /// migrates the rest.
    func migrate(seed: @Sendable () throws -> PostgresSeed, through last: Int) async throws(AppError) {
        let seed = try Result { try seed() }.mapError { AppError.storage(.reading, detail: "the seed catalog: \($0)") }.get()
        try await unlimitedTransaction(.saving) { connection in
            // A server's connections end statements at its call limit; a migration may take longer.
            try await connection.query("SET LOCAL statement_timeout = 0", logger: self.logger)
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: self.logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                logger: self.logger
            )
            var applied: Set<Int> = []
            for try await version in try await connection.query("SELECT version FROM schema_version", logger: self.logger).decode(Int.self)
            {
                applied.insert(version)
            }
            for migration in Self.migrations where !applied.contains(migration.version) && migration.version <= last {
                try await migration.apply(connection, seed, self.logger)
                try await connection.query("INSERT INTO schema_version (version) VALUES (\(migration.version))", logger: self.logger)
            }
        }
    }

    /// `migrate`, once the database answers within `limit`: one that does not answer at start
    /// is an error to report, not a wait without end (the pool retries a refused connection
    /// for as long as it is asked). The migration itself has no limit: it may wait for another
    /// server's under its lock, or rebuild a large table, on a machine as busy as it is.
    public func migrate(within limit: Duration, seed: @escaping @Sendable () throws -> PostgresSeed) async throws {
        let logger = self.logger
        do {
            try await withDeadline(limit, on: ContinuousClock()) {
                try await self.unlimitedTransaction(.reading) { connection in _ = try await connection.query("SELECT 1", logger: logger) }
            }
        } catch is DeadlineExceeded {
            throw PostgresUnreachable(target: target, limit: limit)
        }
        try await migrate(seed: seed)
    }

    /// Any number, the same in every server: the key of the migrations' advisory lock.
    static let migrationLock = 0x6564_7567_6f00_0001

    struct Migration: Sendable {
        let version: Int
        let apply: @Sendable (PostgresConnection, PostgresSeed, Logger) async throws -> Void

        init(version: Int, apply: @escaping @Sendable (PostgresConnection, PostgresSeed, Logger) async throws -> Void) {
            self.version = version
            self.apply = apply
        }

        /// A migration that is only these statements, in order.
        init(version: Int, statements: [String]) {
            self.init(version: version) { connection, _, logger in
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
        }
    }

    /// Every version, in order; a version's number is what databases recorded, its statements
    /// never change once shipped.
    static let migrations: [Migration] = [
        Migration(version: 1, statements: schemaV1),
        Migration(version: 2) { connection, seed, logger in try await seedCatalogAndDemoLearner(seed, in: connection, logger: logger) },
        Migration(version: 3, statements: schemaV3),
        Migration(version: 4, statements: schemaV4),
        Migration(version: 5) { connection, _, logger in try await emailKeys(in: connection, logger: logger) },
        Migration(version: 6, statements: schemaV6),
        // Every write notes what it changed, in its own transaction (`PostgresChangeRows`), for
        // the event streams of every server.
        Migration(version: 7, statements: PostgresChangeRows.schema),
        Migration(version: 8) { connection, seed, logger in
            for statement in schemaV8 {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await storeSeededContent(seed, in: connection, logger: logger)
        },
        Migration(version: 9) { connection, seed, logger in try await seedDemoAnswers(email: seed.demoEmail, in: connection, logger: logger)
        },
        Migration(version: 10, statements: schemaV10),
        Migration(version: 11) { connection, seed, logger in try await catalogOrders(seed, in: connection, logger: logger) },
        Migration(version: 12) { connection, _, logger in try await fsrsCards(in: connection, logger: logger) },
        // An undo looks up a card's last grade, the memory picture a learner's grades since a time.
        Migration(
            version: 13,
            statements: [
                "CREATE INDEX review_log_by_card ON review_log (user_id, course_id, lesson, question, id)",
                "CREATE INDEX review_log_by_time ON review_log (user_id, reviewed_at)",
            ]),
        // Price order by currency, then amount (`CatalogSort.priceValue`): 49.00 EUR and 49.00
        // USD no longer tie.
        Migration(
            version: 14,
            statements: [
                """
                ALTER TABLE course ADD COLUMN price_order bigint GENERATED ALWAYS AS (
                    CASE WHEN price_minor <= 0 THEN 0 ELSE
                        (1 + (ascii(upper(substr(currency, 1, 1))) - 65) * 676 + (ascii(upper(substr(currency, 2, 1))) - 65) * 26
                            + (ascii(upper(substr(currency, 3, 1))) - 65))::bigint * 1000000000 + price_minor
                    END) STORED
                """,
                "DROP INDEX course_by_price",
                "CREATE INDEX course_by_price ON course (price_order, sort_rank)",
            ]),
        // Terminals' queued writes: each applied operation's id and outcome, each latest-wins
        // item's time, and when each answer was given (the earliest is kept).
        Migration(
            version: 15,
            statements: [
                """
                CREATE TABLE applied_operation (
                    user_id bigint NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
                    id text COLLATE "C" NOT NULL,
                    fingerprint text NOT NULL,
                    code text NOT NULL,
                    subject text NOT NULL,
                    applied_at timestamptz NOT NULL,
                    PRIMARY KEY (user_id, id)
                )
                """,
                """
                CREATE TABLE merge_time (
                    user_id bigint NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
                    item text COLLATE "C" NOT NULL,
                    time text COLLATE "C" NOT NULL,
                    PRIMARY KEY (user_id, item)
                )
                """,
                "ALTER TABLE answer ADD COLUMN answered_at bigint",
            ]),
    ]
}
