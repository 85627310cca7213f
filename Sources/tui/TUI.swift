import AppShell
import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

@main
struct TUI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: EduGoApp.text("EduGo Terminal: browse the EduGo course catalog from your terminal."),
        discussion: [
            EduGoApp.text(
                "The database lives in --data-dir, else $EDUGO_DATA_DIR, else $XDG_DATA_HOME/edugo, else ~/.local/share/edugo. "
                    + "Demo account: demo@edugo.dev / edugo-demo."),
            EduGoApp.text(
                "With --server URL (or $EDUGO_SERVER) the app is a client of an EduGo server (edugo-server): "
                    + "the data directory then keeps the session, the log and a replica of the learner's data for working offline."),
            EduGoApp.text(
                "A lesson's links are clickable (OSC 8) in terminals known to show them; EDUGO_HYPERLINKS=on or off decides instead."),
            // Worked out only for a help: every start reads this configuration (1 ms less).
            EduGoApp.asksForHelp(CommandLine.arguments.dropFirst()) ? EduGoApp.keysManual : nil,
        ].compactMap { $0 }.joined(separator: "\n\n"),
        version: "0.1.0",
        subcommands: [ImportCourses.self, Config.self]
    )

    @Option(
        help: ArgumentHelp(
            EduGoApp.text("The config file (also $EDUGO_CONFIG; else $XDG_CONFIG_HOME/edugo/config.toml)."),
            valueName: EduGoApp.text("path")))
    var config: String?

    @Option(help: ArgumentHelp(EduGoApp.text("A [profiles.NAME] of the config file: its server."), valueName: EduGoApp.text("name")))
    var profile: String?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(EduGoApp.text("Where the database lives."), valueName: EduGoApp.text("path")))
    var dataDir: String?

    @Option(
        help: ArgumentHelp(EduGoApp.text("An EduGo server to use instead of the local database (also $EDUGO_SERVER)."), valueName: "url"))
    var server: String?

    // No Swift default: ArgumentParser would add its own "(default: 0)", in English only.
    @Option(
        help: ArgumentHelp(EduGoApp.text("Development: every data call waits this many milliseconds first (default: 0)."), valueName: "ms"))
    var latency: Int?

    @Flag(help: ArgumentHelp(EduGoApp.text("Development: every catalog data call fails as a connectivity error (signing in still works).")))
    var offline = false

    @Option(
        help: ArgumentHelp(
            EduGoApp.text("Development: the app's calendar starts on this day (reviews and streaks can be seen)."),
            valueName: EduGoApp.text("YYYY-MM-DD"))
    )
    var today: String?

    @Option(
        help: ArgumentHelp(
            EduGoApp.text("The language: en or es (else the config file's, else LC_ALL, LC_MESSAGES, LANG)."),
            valueName: EduGoApp.text("code")))
    var language: String?

    @Flag(
        help: ArgumentHelp(
            EduGoApp.text("The accessible mode: the cursor on the selected row, words for marks, no box drawing or animation.")))
    var accessible = false

    // Text, not the enum: ArgumentParser would list the values and the default in English.
    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            EduGoApp.text("Log file detail: trace, debug, info, notice, warning, error or critical (default: info)."),
            valueName: EduGoApp.text("level")))
    var logLevel: String?

    /// As `AsyncParsableCommand`'s own, except that every message is sanitised before it is
    /// printed: an error echoes what was typed (an unknown option, a `--server` value), and
    /// no text from outside may drive the terminal (SPEC, "Bad input and faults").
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = EduGoApp.parserText(fullMessage(for: error))
            if !message.isEmpty {
                let text = Data((EduGoApp.printable(message) + "\n").utf8)
                if code == .success { FileHandle.standardOutput.write(text) } else { FileHandle.standardError.write(text) }
            }
            Foundation.exit(code.rawValue)
        }
    }

    func validate() throws {
        guard latency ?? 0 >= 0 else { throw ValidationError(EduGoApp.text("--latency must be 0 or more milliseconds")) }
        if let logLevel, AppConfiguration.LogLevel(rawValue: logLevel) == nil {
            let levels = AppConfiguration.LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError(EduGoApp.text("--log-level needs one of %@ (got \"%@\")", levels, logLevel))
        }
        if let today, !AppConfiguration.isDay(today) {
            throw ValidationError(EduGoApp.text("--today needs a day as YYYY-MM-DD, e.g. 2026-11-25"))
        }
        if let server { _ = try Self.serverURL(server) }
        if let language, let problem = AppConfiguration.languageProblem(language) { throw ValidationError(problem) }
    }

    /// `http://host[:port]` or `https://…`, without a query; a trailing slash is dropped.
    static func serverURL(_ text: String) throws -> URL {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else {
            throw ValidationError(
                EduGoApp.text("--server needs an http:// or https:// address, e.g. http://127.0.0.1:8080 (got \"%@\")", text))
        }
        return url
    }

    func run() async throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            FileHandle.standardError.write(Data((EduGoApp.text("tui needs an interactive terminal") + "\n").utf8))
            throw ExitCode(2)
        }
        let environment = ProcessInfo.processInfo.environment
        let choice: ConfigCommand.Choice
        switch ConfigCommand.choose(option: config, profile: profile, environment: environment) {
        case .success(let chosen): choice = chosen
        case .failure(let failure):
            FileHandle.standardError.write(Data("tui: \(EduGoApp.printable(failure.message))\n".utf8))
            throw ExitCode(1)
        }
        let serverText = server ?? choice.profileServer ?? environment["EDUGO_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
        let serverURL: URL?
        do {
            serverURL = try serverText.map(Self.serverURL)
        } catch {
            FileHandle.standardError.write(Data("tui: \(EduGoApp.printable("\(error)"))\n".utf8))
            throw ExitCode(2)
        }
        let configuration = AppConfiguration(
            dataDirectory: DataDirectory.resolve(option: dataDir, environment: environment),
            server: serverURL,
            conditions: DevelopmentConditions(latency: .milliseconds(latency ?? 0), offline: offline),
            logLevel: logLevel.flatMap(AppConfiguration.LogLevel.init(rawValue:)) ?? .info,
            environment: environment,
            today: today,
            settings: choice.settings,
            configFile: (choice.path, choice.explicit),
            signInEmail: choice.profileEmail,
            languageOption: language,
            accessible: accessible
        )
        let code = await EduGoApp.run(configuration)
        if code != 0 { throw ExitCode(code) }
    }
}

/// `tui import-courses FILE [--data-dir PATH]`
struct ImportCourses: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-courses",
        abstract: EduGoApp.text("Add or update courses from a course JSON file, in one transaction."),
        discussion: [
            EduGoApp.text(
                "The file holds an array of courses, or {\"courses\": [...]}; the README lists the fields. Courses with a new id are "
                    + "added, those with a known id are updated. A bad file is refused with the entry and field at fault, and nothing "
                    + "is changed."),
            EduGoApp.text("--data-dir PATH, before or after the file, chooses the database as it does for the app."),
        ].joined(separator: "\n\n")
    )

    @Argument(help: ArgumentHelp(EduGoApp.text("The course JSON file."), valueName: EduGoApp.text("file")))
    var file: String

    /// `--data-dir` belongs to the app command and is accepted before or after this one.
    @ParentCommand var app: TUI

    func run() throws {
        let directory = DataDirectory.resolve(option: app.dataDir, environment: ProcessInfo.processInfo.environment)
        let code = CourseImportCommand.run(file: file, dataDirectory: directory, accessible: app.accessible)
        if code != 0 { throw ExitCode(code) }
    }
}

/// `tui config --print-defaults`, `tui config --check [PATH]`
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: EduGoApp.text("Print the default config file, or check one."),
        discussion: [
            EduGoApp.text(
                "--print-defaults writes every setting with its default, commented, to standard output: "
                    + "tui config --print-defaults > ~/.config/edugo/config.toml"),
            EduGoApp.text(
                "--check [PATH] checks a file (else the one in force: --config, $EDUGO_CONFIG, or $XDG_CONFIG_HOME/edugo/config.toml) "
                    + "and exits 1 naming the line and the key at fault."),
        ].joined(separator: "\n\n")
    )

    @Flag(name: .customLong("print-defaults"), help: ArgumentHelp(EduGoApp.text("Write the complete default file, commented.")))
    var printDefaults = false

    @Flag(help: ArgumentHelp(EduGoApp.text("Check a config file: the one named, else the one in force.")))
    var check = false

    @Argument(help: ArgumentHelp(EduGoApp.text("The file --check reads."), valueName: EduGoApp.text("path")))
    var path: String?

    @ParentCommand var app: TUI

    func validate() throws {
        guard printDefaults != check else { throw ValidationError(EduGoApp.text("give one of --print-defaults and --check")) }
        if printDefaults, path != nil { throw ValidationError(EduGoApp.text("--print-defaults takes no file")) }
    }

    func run() throws {
        if printDefaults {
            FileHandle.standardOutput.write(Data((ConfigCommand.defaultText).utf8))
            return
        }
        let (code, message) = ConfigCommand.check(path: path, option: app.config, environment: ProcessInfo.processInfo.environment)
        let text = Data((EduGoApp.printable(message) + "\n").utf8)
        if code == 0 { FileHandle.standardOutput.write(text) } else { FileHandle.standardError.write(text) }
        if code != 0 { throw ExitCode(code) }
    }
}
