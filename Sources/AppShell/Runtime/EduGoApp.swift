import Foundation
import Logging
import SharedKernel
import Storage
import Terminal
import TerminalUI

/// The composition root: builds storage, decorators, features and the terminal, then runs.
public enum EduGoApp {
    /// Runs the app until the person quits and returns the process exit code. Start-up
    /// failures are printed to stderr with the reason.
    @MainActor
    public static func run(_ configuration: AppConfiguration) async -> Int32 {
        let hasher = PasswordHasher()
        let database: AppDatabase
        do {
            database = try AppDatabase.open(directory: configuration.dataDirectory, passwordHasher: hasher)
        } catch {
            printError(error.description)
            return 1
        }
        let logger = makeLogger(directory: configuration.dataDirectory, level: configuration.logLevel)
        logger.info("starting", metadata: ["database": "\(database.path)"])

        let ports = AppPorts(
            courses: SQLiteCourseRepository(database: database),
            enrollments: SQLiteEnrollmentRepository(database: database),
            favourites: SQLiteFavouritesRepository(database: database),
            profiles: SQLiteProfileRepository(database: database),
            sessions: SQLiteSessionRepository(database: database, hasher: hasher)
        ).instrumented(conditions: configuration.conditions, logger: logger)

        let terminal: NcursesTerminal
        do {
            terminal = try NcursesTerminal(options: TerminalOptions(environment: configuration.environment))
        } catch {
            printError(error.description)
            return error == .notInteractive ? 2 : 1
        }

        let shell = ShellController(ports: ports)
        await AppRuntime(terminal: terminal, shell: shell, logger: logger).run()
        return 0
    }

    /// Every key of every screen, for `tui --help`.
    public static var keysManual: String { GlobalKeys.manual }

    private static func makeLogger(directory: URL, level: AppConfiguration.LogLevel) -> Logger {
        let path = directory.appendingPathComponent("tui.log").path
        let logLevel = Logger.Level(rawValue: level.rawValue) ?? .info
        guard let descriptor = FileLogHandler.open(path: path) else {
            return Logger(label: "edugo", factory: { _ in SwiftLogNoOpLogHandler() })
        }
        return Logger(label: "edugo", factory: { label in
            FileLogHandler(descriptor: descriptor, label: label, level: logLevel)
        })
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data("tui: \(TerminalText.sanitize(message))\n".utf8))
    }
}
