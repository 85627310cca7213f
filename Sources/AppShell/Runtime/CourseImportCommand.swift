import Foundation
import Platform
import Presentation
import Settings
import Storage
import TerminalUI

/// `tui import-courses FILE`: adds or updates courses from a course JSON file, with its
/// progress drawn on a terminal.
public enum CourseImportCommand {
    /// Imports the file into the database of `dataDirectory`, prints the counts or the reason
    /// it changed nothing, and returns the process exit code. `accessible` (`--accessible`, or
    /// the config file's): its progress told a step at a time, with nothing drawn again.
    public static func run(file path: String, dataDirectory: URL, accessible: Bool = false) -> Int32 {
        let texts = EduGoApp.commandLineTexts
        let accessible = accessible || EduGoApp.commandLineSettings?.accessible == true
        switch CourseFileImport.run(file: path, dataDirectory: dataDirectory, showingProgressIn: texts, accessible: accessible) {
        case .imported(let file, let database, let summary):
            return CourseImportReport.imported(
                file, into: database, added: summary.added, updated: summary.updated, texts: texts
            ) { TerminalText.sanitize($0) }
        case .failed(let reason):
            return CourseImportReport.failed(reason, program: "tui", texts: texts) { TerminalText.sanitize($0) }
        }
    }
}
