import Foundation
import Platform
import SharedKernel

/// `import-courses FILE` into the SQLite database of a data directory, in one transaction:
/// what happened, for the app's and the server's commands to report (`CourseImportReport`:
/// they own the output and the exit code).
public enum CourseFileImport {
    public enum Outcome: Sendable {
        /// `summary` of the file at `file`, into the database at `database`.
        case imported(file: String, database: String, summary: CourseImportSummary)
        /// Nothing was changed, for this reason.
        case failed(LocalizedText)

        public var succeeded: Bool {
            if case .imported = self { return true }
            return false
        }
    }

    /// As `run(file:dataDirectory:progress:)`, its progress drawn on standard error when that is
    /// a terminal (`ImportProgressDisplay`), in `texts`' language; the display is gone before
    /// the outcome is told.
    public static func run(file path: String, dataDirectory: URL, showingProgressIn texts: Texts, accessible: Bool = false) -> Outcome {
        let display = ImportProgressDisplay.forStandardError(texts: texts, accessible: accessible)
        display?.start()
        let outcome = run(file: path, dataDirectory: dataDirectory, progress: display?.progress)
        display?.stop(succeeded: outcome.succeeded)
        return outcome
    }

    /// Why a course file could not be read or parsed, as every import command tells it.
    public struct Unreadable: Error {
        public let reason: LocalizedText
    }

    /// The course file at `path`, read and parsed: every store's import starts here.
    public static func read(path: String) throws(Unreadable) -> CourseFile {
        let data: Data
        do {
            data = try CourseFileReader.read(path: path)
        } catch {
            throw Unreadable(reason: error.text)
        }
        do {
            return try CourseJSON.parse(data)
        } catch {
            throw Unreadable(reason: "cannot import \(path), nothing was changed: \(error.text)")
        }
    }

    /// Reads the file at `path` and imports it into the database of `dataDirectory`, telling
    /// `progress` each step.
    /// `passwordHasher`: the one a new database's demo account is seeded with (tests' cheap one).
    public static func run(
        file path: String, dataDirectory: URL, progress: ImportProgress? = nil, passwordHasher: PasswordHasher = PasswordHasher()
    ) -> Outcome {
        progress?.begin(.reading)
        // Parsed before the database is opened, so a new one (made, migrated and seeded) is
        // its own step, not part of the reading, and a broken file makes no data directory.
        let file: CourseFile
        do {
            file = try read(path: path)
        } catch {
            return .failed(error.reason)
        }
        progress?.advance(to: file.entries.count)
        progress?.begin(.opening)
        let database: AppDatabase
        do {
            database = try AppDatabase.open(directory: dataDirectory, passwordHasher: passwordHasher)
        } catch {
            return .failed(.verbatim(error.description))
        }
        do {
            return .imported(file: path, database: database.path, summary: try database.importCourses(file, progress: progress))
        } catch {
            return .failed("cannot import \(path), nothing was changed: \(error.text)")
        }
    }
}
