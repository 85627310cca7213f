import Foundation
import Presentation
import Storage
import TerminalUI

/// `tui import-courses FILE`: adds or updates courses from a course JSON file.
public enum CourseImportCommand {
    /// Imports the file into the database of `dataDirectory`, prints the counts or the reason
    /// it changed nothing, and returns the process exit code.
    public static func run(file path: String, dataDirectory: URL) -> Int32 {
        CourseFileImportCommand.run(file: path, dataDirectory: dataDirectory, program: "tui", texts: EduGoApp.commandLineTexts) {
            TerminalText.sanitize($0)
        }
    }
}
