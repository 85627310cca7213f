import Foundation
import Logging
import Platform
import PostgresStore
import Server
import SharedKernel
import Storage

/// `edugo-server import-courses FILE`: the app's import, into the server's database.
public enum ServerCourseImport {
    /// Into the store `edugo-server` would serve; the process exit code.
    public static func run(file: String, store: ServerStore) async -> Int32 {
        switch store {
        case .sqlite(let directory): run(file: file, dataDirectory: directory)
        case .postgres(let url): await run(file: file, databaseURL: url)
        }
    }

    public static func run(file: String, dataDirectory: URL) -> Int32 {
        switch CourseFileImport.run(file: file, dataDirectory: dataDirectory, showingProgressIn: .english) {
        case .imported(let file, let database, let summary):
            return CourseImportReport.imported(file, into: database, added: summary.added, updated: summary.updated) {
                PrintableText.sanitize($0)
            }
        case .failed(let reason):
            return CourseImportReport.failed(reason, program: "edugo-server") { PrintableText.sanitize($0) }
        }
    }

    /// The same import into a PostgreSQL database (migrated and seeded first if it is new):
    /// the same file checks, in the import's transaction.
    public static func run(file path: String, databaseURL: String) async -> Int32 {
        let display = ImportProgressDisplay.forStandardError(texts: .english)
        display?.start()
        func fail(_ reason: LocalizedText) -> Int32 {
            display?.stop(succeeded: false)
            return CourseImportReport.failed(reason, program: "edugo-server") { PrintableText.sanitize($0) }
        }
        let progress = display?.progress
        progress?.begin(.reading)
        let courses: CourseFile
        do {
            courses = try CourseFileImport.read(path: path)
        } catch {
            return fail(error.reason)
        }
        progress?.advance(to: courses.entries.count)
        progress?.begin(.opening)
        let database: PostgresDatabase
        do {
            database = try PostgresDatabase(url: databaseURL, logger: Logger(label: "edugo-server"))
        } catch {
            return fail(.verbatim(error.description))
        }
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await database.run() }
            defer { group.cancelAll() }
            do {
                let hasher = PasswordHasher()
                try await database.migrate(within: .seconds(15)) { try PlatformStores.postgresSeed(passwordHasher: hasher) }
                let summary = try await database.importCourses(
                    courses.entries.map { (course: $0.course, lessons: $0.lessons) }, prerequisites: courses.outsidePrerequisites,
                    progress: progress
                ) { stored, chain in
                    try courses.checkPrerequisites(stored: stored)
                    try courses.checkCycles { chain[$0] }
                }
                display?.stop()
                return CourseImportReport.imported(
                    path, into: PostgresDatabase.redacted(databaseURL), added: summary.added, updated: summary.updated
                ) { PrintableText.sanitize($0) }
            } catch {
                let reason: String =
                    switch error as? AppError {
                    case .storage(_, let detail)?: detail
                    case let other?: other.userMessage.english
                    case nil: String(describing: error)
                    }
                return fail(.verbatim("cannot import \(path), nothing was changed: \(reason)"))
            }
        }
    }
}
