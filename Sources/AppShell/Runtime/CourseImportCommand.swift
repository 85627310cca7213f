import Foundation

#if canImport(Glibc)
import Glibc
#endif
import Storage

/// `tui import-courses FILE`: adds or updates courses from a course JSON file.
public enum CourseImportCommand {
    /// Imports the file into the database of `dataDirectory`, prints the counts or the reason
    /// it changed nothing, and returns the process exit code.
    public static func run(file path: String, dataDirectory: URL) -> Int32 {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            return fail("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return fail("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            data.append(contentsOf: buffer[..<count])
        }
        let database: AppDatabase
        do {
            database = try AppDatabase.open(directory: dataDirectory)
        } catch {
            return fail(error.description)
        }
        do {
            let summary = try database.importCourses(from: data)
            print("Imported \(path) into \(database.path): \(summary.added) added, \(summary.updated) updated")
            return 0
        } catch {
            return fail("cannot import \(path), nothing was changed: \(error.description)")
        }
    }

    private static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("tui: \(message)\n".utf8))
        return 1
    }
}
