import Foundation
import Storage
import TerminalUI

/// `tui import-courses FILE`: adds or updates courses from a course JSON file.
public enum CourseImportCommand {
    /// Imports the file into the database of `dataDirectory`, prints the counts or the reason
    /// it changed nothing, and returns the process exit code.
    public static func run(file path: String, dataDirectory: URL) -> Int32 {
        let data: Data
        do {
            data = try CourseFileReader.read(path: path)
        } catch {
            return fail(error.description)
        }
        let database: AppDatabase
        do {
            database = try AppDatabase.open(directory: dataDirectory)
        } catch {
            return fail(error.description)
        }
        do {
            let summary = try database.importCourses(from: data)
            print(TerminalText.sanitize("Imported \(path) into \(database.path): \(summary.added) added, \(summary.updated) updated"))
            return 0
        } catch {
            return fail("cannot import \(path), nothing was changed: \(error.description)")
        }
    }

    /// Everything said goes through `sanitize`: a file's name or content must not drive
    /// the terminal through an error message.
    private static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("tui: \(TerminalText.sanitize(message))\n".utf8))
        return 1
    }
}
