import Foundation
import Platform
import SharedKernel

/// `import-courses FILE`, of the app and of the server: adds or updates courses from a course
/// JSON file, in one transaction.
public enum CourseFileImportCommand {
    /// Imports the file into the database of `dataDirectory`, prints the counts or the reason
    /// it changed nothing, and returns the process exit code.
    /// `program` names the command in error lines; `sanitize` makes every line printable: a
    /// file's name or content must not drive the terminal through an error message. `texts`:
    /// the language of what it prints.
    public static func run(
        file path: String,
        dataDirectory: URL,
        program: String,
        texts: Texts = .english,
        sanitize: (String) -> String
    ) -> Int32 {
        func fail(_ message: LocalizedText) -> Int32 {
            FileHandle.standardError.write(Data("\(program): \(sanitize(texts(message)))\n".utf8))
            return 1
        }
        let data: Data
        do {
            data = try CourseFileReader.read(path: path)
        } catch {
            return fail(error.text)
        }
        let database: AppDatabase
        do {
            database = try AppDatabase.open(directory: dataDirectory)
        } catch {
            return fail(.verbatim(error.description))
        }
        do {
            let summary = try database.importCourses(from: data)
            print(sanitize(texts("Imported \(path) into \(database.path): \(summary.added) added, \(summary.updated) updated")))
            return 0
        } catch {
            return fail("cannot import \(path), nothing was changed: \(error.text)")
        }
    }
}
