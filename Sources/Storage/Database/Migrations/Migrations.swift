import Foundation
import GRDB
import Platform
import SharedKernel

/// The versioned schema. Migrations run once each and in order; never edit a shipped one,
/// add a new one.
enum Migrations {
    static let demoName = DemoAccount.name
    static let demoEmail = DemoAccount.email
    static let demoPassword = DemoAccount.password

    static func migrator(
        passwordHasher: PasswordHasher,
        seedCatalog: @escaping @Sendable () throws -> [CourseEntry],
        today: LearnerDay? = nil
    ) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // In order, each once; the identifiers are what existing databases recorded.
        migrator.registerMigration("v1-schema") { db in try v1Schema(db) }
        migrator.registerMigration("v1-seed-catalog") { db in try v1SeedCatalog(db, seedCatalog: seedCatalog) }
        migrator.registerMigration("v1-demo-account") { db in try v1DemoAccount(db, passwordHasher: passwordHasher) }
        migrator.registerMigration("v2-enrollments") { db in try v2Enrollments(db) }
        migrator.registerMigration("v3-favourites") { db in try v3Favourites(db) }
        migrator.registerMigration("v4-search-key") { db in try v4SearchKey(db) }
        migrator.registerMigration("v5-catalog-order-and-full-text-search") { db in try v5CatalogOrderAndFullTextSearch(db) }
        migrator.registerMigration("v6-search-prefixes-up-to-6") { db in try v6SearchPrefixesUpTo6(db) }
        migrator.registerMigration("v7-lessons-and-sane-counts") { db in try v7LessonsAndSaneCounts(db, seedCatalog: seedCatalog) }
        migrator.registerMigration("v8-demo-progress") { db in try v8DemoProgress(db) }
        migrator.registerMigration("v9-folding-and-filters") { db in try v9FoldingAndFilters(db) }
        migrator.registerMigration("v10-refresh-tokens") { db in try v10RefreshTokens(db) }
        migrator.registerMigration("v11-catalog-size") { db in try v11CatalogSize(db) }
        migrator.registerMigration("v12-catalog-revision") { db in try v12CatalogRevision(db) }
        migrator.registerMigration("v13-email-key") { db in try v13EmailKey(db) }
        migrator.registerMigration("v14-change-events") { db in try v14ChangeEvents(db) }
        migrator.registerMigration("v15-completion-is-history") { db in try v15CompletionIsHistory(db) }
        migrator.registerMigration("v16-lessons-questions-reviews") { db in try v16LessonsQuestionsReviews(db, seedCatalog: seedCatalog) }
        migrator.registerMigration("v17-demo-answers") { db in try v17DemoAnswers(db, today: today) }
        migrator.registerMigration("v18-last-activity") { db in try v18LastActivity(db) }
        migrator.registerMigration("v19-catalog-orders") { db in try v19CatalogOrders(db) }
        migrator.registerMigration("v20-fsrs") { db in try v20FSRS(db) }
        migrator.registerMigration("v21-review-log-lookups") { db in try v21ReviewLogLookups(db) }
        migrator.registerMigration("v22-price-by-currency") { db in try v22PriceByCurrency(db) }
        migrator.registerMigration("v23-operations") { db in try v23Operations(db) }
        migrator.registerMigration("v24-outbox") { db in try v24Outbox(db) }
        migrator.registerMigration("v25-replica-parts") { db in try v25ReplicaParts(db) }
        migrator.registerMigration("v26-sent-answers") { db in try v26SentAnswers(db) }
        migrator.registerMigration("v27-learning-digest") { db in try v27LearningDigest(db) }
        migrator.registerMigration("v28-opening-pages") { db in try v28OpeningPages(db) }
        migrator.registerMigration("v29-search-terms") { db in try v29SearchTerms(db) }
        migrator.registerMigration("v30-search-row-on-change") { db in try v30SearchRowOnChange(db) }
        return migrator
    }
}
