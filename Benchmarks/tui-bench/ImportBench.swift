import Foundation
import Logging
import Platform
import PostgresStore
import SharedKernel
import Storage
import TestSupport

/// Importing a generated catalog (issue 28): into a new SQLite database through
/// `AppDatabase.importCourses` (what `tui import-courses` and `edugo-server import-courses`
/// run), and into a new PostgreSQL database through `PostgresDatabase.importCourses`, from
/// courses already in memory; `runs` times each, the median printed with every run.
enum ImportBench {
    static func run(size: Int, runs: Int, postgresAdmin: String?) async throws {
        let courses = GeneratedCatalog.courses(count: size)
        var sqlite: [Double] = []
        for _ in 0..<runs {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-import-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let database = try AppDatabase.open(directory: directory, seedCatalog: { [] })
            let progress = ImportProgress()
            let started = ContinuousClock.now
            _ = try database.importCourses(courses, progress: progress)
            sqlite.append(seconds(ContinuousClock.now - started))
            progress.end()
            print("  SQLite steps: \(steps(progress))")
        }
        print("import \(size) courses, SQLite:     \(summary(sqlite))")
        guard let admin = postgresAdmin else { return }
        var postgres: [Double] = []
        let entries = courses.map { (course: $0, lessons: [Lesson]?.none) }
        for _ in 0..<runs {
            let name = "edugo_import_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
            try await administer(admin, "CREATE DATABASE \(name)")
            guard var url = URLComponents(string: admin) else { throw BenchError.failed("not a URL: \(admin)") }
            url.path = "/\(name)"
            let database = try PostgresDatabase(url: url.string ?? admin, logger: Logger(label: "import-bench"))
            let pool = Task { await database.run() }
            try await database.migrate {
                PostgresSeed(courses: [], demoName: DemoAccount.name, demoEmail: DemoAccount.email, demoPasswordHash: "x")
            }
            let progress = ImportProgress()
            let started = ContinuousClock.now
            _ = try await database.importCourses(entries, progress: progress)
            postgres.append(seconds(ContinuousClock.now - started))
            progress.end()
            print("  PostgreSQL steps: \(steps(progress))")
            pool.cancel()
            _ = await pool.value
            try await administer(admin, "DROP DATABASE \(name) WITH (FORCE)")
        }
        print("import \(size) courses, PostgreSQL: \(summary(postgres))")
    }

    private static func administer(_ admin: String, _ sql: String) async throws {
        let database = try PostgresDatabase(url: admin, logger: Logger(label: "import-bench"))
        let pool = Task { await database.run() }
        defer { pool.cancel() }
        try await database.execute(sql)
    }

    /// Where a run's time went, step by step (as `import-courses` shows it; the progress costs
    /// the search index's fill a counted function, about 2 %).
    private static func steps(_ progress: ImportProgress) -> String {
        progress.snapshot.finished.map { String(format: "%@ %.1f s", "\($0.step)", seconds($0.duration)) }.joined(separator: ", ")
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func summary(_ values: [Double]) -> String {
        let sorted = values.sorted()
        let median = sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        return String(format: "median %.1f s (runs: %@)", median, values.map { String(format: "%.1f", $0) }.joined(separator: ", "))
    }
}
