import Foundation
import Logging
import Platform
import PostgresStore
import SharedKernel
import Storage
import TestSupport

/// Issue 26's sorting figures: in each catalog order, the first page the list reads and the
/// page after it (what `PgDn` past the window reads), beside title order, through the stores
/// themselves (SQLite, and PostgreSQL when a database is given), as the app and the server
/// ask them: 100 rows a page, the count with the first.
enum OrderBench {
    static let queries = ["", "swift", "level:adv", "is:favourite"]
    static let pageSize = 100

    struct Figure {
        var first: [Double] = []
        var next: [Double] = []
    }

    static func run(size: Int, runs: Int, postgres: String?) async throws {
        let directory = try await catalog(size: size)
        let database = try AppDatabase.open(directory: directory, seedCatalog: { [] })
        let learner = try await SQLiteSessionRepository(database: database, hasher: PasswordHasher())
            .signIn(email: "demo@edugo.dev", password: "edugo-demo")
        try await measure("SQLite", SQLiteCourseRepository(database: database), learner: learner.id, size: size, runs: runs)
        guard let postgres else { return }
        let started = ContinuousClock.now
        let store = try PostgresDatabase(url: postgres, logger: Logger(label: "tui-bench"))
        let pool = Task { await store.run() }
        defer { pool.cancel() }
        let courses = GeneratedCatalog.courses(count: size)
        try await store.migrate {
            PostgresSeed(
                courses: courses.map { (course: $0, lessons: nil) },
                demoName: DemoAccount.name, demoEmail: DemoAccount.email, demoPasswordHash: try PasswordHasher().hash(DemoAccount.password)
            )
        }
        let signedIn = try await AccountService(store: PostgresAccountStore(database: store), hasher: PasswordHasher())
            .authenticate(email: DemoAccount.email, password: DemoAccount.password)
        try await store.execute(
            """
            INSERT INTO favourite (user_id, course_id, course_rank, created_at)
            SELECT \(signedIn.id.rawValue), id, sort_rank, now() FROM course WHERE right(id, 7)::int % 997 = 0
            ON CONFLICT DO NOTHING
            """)
        try await store.execute("ANALYZE")
        print("  PostgreSQL ready in \(format(milliseconds(ContinuousClock.now - started) / 1_000, "s"))")
        try await measure("PostgreSQL", PostgresCourseRepository(database: store), learner: signedIn.id, size: size, runs: runs)
    }

    static func measure(_ name: String, _ store: some CourseRepository, learner: UserID, size: Int, runs: Int) async throws {
        print("\n\(name), \(size) courses, \(runs) runs: median (p90) ms of the first page with its count, then the page after it")
        print("| query | order | first page | next page | first ÷ title's | next ÷ title's |")
        print("|---|---|---|---|---|---|")
        for text in queries {
            var title = Figure()
            for field in CatalogSort.Field.allCases {
                for reversed in [false, true] {
                    var query = CatalogQuery.parse(text)
                    query.sort = CatalogSort(field, reversed: reversed)
                    var figure = Figure()
                    for _ in 0..<runs {
                        var started = ContinuousClock.now
                        let page = try await store.countedPage(query, for: learner, at: .first, limit: pageSize)
                        figure.first.append(milliseconds(ContinuousClock.now - started))
                        guard let last = page.rows.last else { continue }
                        started = ContinuousClock.now
                        _ = try await store.page(query, for: learner, at: .after(last.key), limit: pageSize)
                        figure.next.append(milliseconds(ContinuousClock.now - started))
                    }
                    if field == .title, !reversed { title = figure }
                    let ratio = { (mine: [Double], base: [Double]) in
                        base.isEmpty || mine.isEmpty ? "–" : String(format: "%.2f×", median(mine) / max(median(base), 0.001))
                    }
                    print(
                        "| `\(text.isEmpty ? "(all)" : text)` | \(query.sort.apiText) | \(spread(figure.first)) | \(spread(figure.next)) | "
                            + "\(ratio(figure.first, title.first)) | \(ratio(figure.next, title.next)) |")
                }
            }
        }
    }

    static func spread(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "–" }
        return "\(format(median(values))) (\(format(percentile(values, 0.9))))"
    }
}
