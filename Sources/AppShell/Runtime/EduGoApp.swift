import Foundation
import Logging
import Platform
import Presentation
import RemoteStore
import Settings
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
        // The one clock every timer and wait of the app uses (tests give theirs).
        let clock = ShellClock()
        if let server = configuration.server { return await runRemote(configuration, server: server, clock: clock) }
        let hasher = PasswordHasher()
        let database: AppDatabase
        do {
            // One learner's reads: a page cache of 512 KiB a connection holds a screenful of a
            // million-course catalog, where SQLite's 2 MiB each made the app's memory grow with
            // the catalog (6 MB of caches at 1 M).
            database = try AppDatabase.open(
                directory: configuration.dataDirectory, passwordHasher: hasher, today: LearnerCalendar(start: configuration.startDay).today,
                pageCacheKibibytes: 512)
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
            sessions: SQLiteSessionRepository(database: database, hasher: hasher),
            learning: SQLiteLearningRepository(database: database),
            changes: SQLiteChangeFeed(database: database),
            calendar: LearnerCalendar(start: configuration.startDay)
        ).instrumented(conditions: configuration.conditions, logger: logger, clock: clock)
        return await runTerminal(configuration, ports: ports, clock: clock, logger: logger) { _ in }
    }

    /// Remote mode: every port over the server's API; the data directory keeps only the
    /// session and the log.
    @MainActor
    private static func runRemote(_ configuration: AppConfiguration, server: URL, clock: ShellClock) async -> Int32 {
        do {
            try AppDatabase.createDirectory(configuration.dataDirectory)
        } catch {
            printError(error.description)
            return 1
        }
        let logger = makeLogger(directory: configuration.dataDirectory, level: configuration.logLevel)
        logger.info("starting", metadata: ["server": "\(server.absoluteString)"])
        let httpClient = RemoteHTTPClient()
        // The server's work for the start (the renewal, then what waits for its token) goes
        // once the first frame is drawn: on one machine it took a core from that frame. At
        // most half a second later, whatever the first frame waits on.
        let startHold = StartHold()
        let store = RemoteStore(
            server: server, dataDirectory: configuration.dataDirectory, httpClient: httpClient, timeLimit: configuration.remoteTimeLimit,
            logger: logger, language: configuration.language.code, startHold: startHold)
        let holdLimit = Task {
            guard (try? await clock.sleep(for: .milliseconds(500))) != nil else { return }
            startHold.open()
        }
        defer { holdLimit.cancel() }
        var ports = AppPorts(
            courses: store, enrollments: store, favourites: store, profiles: store, sessions: store, learning: store, changes: store,
            calendar: LearnerCalendar(start: configuration.startDay)
        )
        let status = SyncStatus()
        let replication = openReplica(configuration, logger: logger).map { database in
            ports.replicate(
                store, on: database, status: status, savingUpTo: configuration.settings.offlineMegabytes * 1_000_000, logger: logger,
                startHold: startHold)
        }
        ports = ports.instrumented(conditions: configuration.conditions, logger: logger, server: store.hostDescription, clock: clock)
        let outage = OutageMonitor(host: store.hostDescription, clock: clock, probe: { await store.probe() })
        // A renewal the server has answered but whose token is not stored yet would leave a used
        // token on disk, which the next start presents and the server takes for a stolen one:
        // the learner would find themselves signed out. Ended by a signal, the app waits for it
        // (as long as its request may take); `q` waits within `finish`'s limit.
        let settle: @Sendable () async -> Void = { await store.settleSession() }
        let code = await runTerminal(configuration, ports: ports, clock: clock, logger: logger, beforeExit: settle) { shell in
            shell.onFirstSettledFrame = { startHold.open() }
            if replication != nil {
                shell.sync = status
                shell.flow.waitingWrites = { status.waiting }
                shell.flow.savedSearch = { status.savedSearch }
                shell.flow.offline = replication?.shelf
                status.tell = { [weak shell] message in shell?.notices.post(message, overProgress: false) }
            }
            let routing = RemoteEventRouting(shell: shell, outage: outage)
            let resend: (@Sendable () async -> Void)?
            if let replication { resend = { await replication.catchUp() } } else { resend = nil }
            routing.connect(keyWaitLimit: configuration.remoteTimeLimit, beforeReading: resend)
            await routing.route(store.events)
        }
        outage.stop()
        await store.finish()
        await httpClient.shutdown()
        return code
    }

    /// The replica remote mode keeps in `replica/` of the data directory; nil (the server
    /// alone, as before) when it cannot be opened, which the log says.
    @MainActor
    private static func openReplica(_ configuration: AppConfiguration, logger: Logger) -> AppDatabase? {
        do {
            return try AppDatabase.open(
                directory: configuration.dataDirectory.appendingPathComponent("replica", isDirectory: true), seedCatalog: { [] },
                pageCacheKibibytes: 512)
        } catch {
            logger.error("replica not opened: writes need the server", metadata: ["reason": "\(error.description)"])
            return nil
        }
    }

    /// Opens the terminal and runs the shell on `ports` until the learner quits; `watch` runs
    /// beside it (the remote store's events) and is cancelled at the end. `clock` is the one
    /// every timer of the app sleeps on.
    @MainActor
    private static func runTerminal(
        _ configuration: AppConfiguration,
        ports: AppPorts,
        clock: ShellClock,
        logger: Logger,
        beforeExit: (@Sendable () async -> Void)? = nil,
        watch: @escaping @MainActor (ShellController) async -> Void
    ) async -> Int32 {
        let terminal: NcursesTerminal
        do {
            terminal = try NcursesTerminal(
                options: TerminalOptions(environment: configuration.environment, theme: configuration.settings.theme))
        } catch {
            printError(error.description)
            return error == .notInteractive ? 2 : 1
        }
        let home = configuration.environment["HOME"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
        var directory = configuration.dataDirectory.path
        if !home.isEmpty, directory.hasPrefix(home + "/") { directory = "~" + directory.dropFirst(home.count) }
        let shell = ShellController(
            ports: ports, clock: clock,
            layout: LayoutSettings(wideFrom: configuration.settings.wideLayoutColumns, review: configuration.settings.review),
            store: configuration.server == nil ? .local(path: directory) : nil, signInEmail: configuration.signInEmail)
        shell.look.bindings = configuration.settings.keys
        shell.look.texts = Texts(configuration.language)
        shell.look.accessible = configuration.accessible
        let watching = Task { @MainActor in await watch(shell) }
        let reloading = configuration.configFile.flatMap { file in
            ConfigReload(
                path: file.path, explicit: file.explicit, settings: configuration.settings, terminal: terminal, shell: shell,
                accessibleOption: configuration.accessibleOption
            ) { settings in
                AppConfiguration.language(option: configuration.languageOption, environment: configuration.environment, settings: settings)
            }
        }
        await AppRuntime(terminal: terminal, shell: shell, logger: logger, beforeExit: beforeExit).run()
        reloading?.stop()
        watching.cancel()
        return 0
    }

    /// `text` safe to print on a terminal: control characters, whole escape sequences and
    /// invisible format characters (bidi controls, zero-width ones) removed, lines kept. For
    /// every message the command line prints, since they echo what was typed.
    public static func printable(_ text: String) -> String {
        TerminalText.sanitize(text, keepingNewlines: true)
    }

    /// Whether `arguments` may ask ArgumentParser for a help, which shows the keys manual: a
    /// start need not work it out. Generous: `help`, anything from `--help` on (`--help=x`,
    /// `--help-hidden`), any single-dash word with an `h` (`-h`, `-help`, `-vh`), the dump.
    public static func asksForHelp(_ arguments: some Sequence<String>) -> Bool {
        arguments.contains { argument in
            argument == "help" || argument.hasPrefix("--help") || argument.hasPrefix("--experimental-dump-help")
                || (argument.hasPrefix("-") && !argument.hasPrefix("--") && argument.contains("h"))
        }
    }

    /// Every key of every screen, for `tui --help`, with the keys the config file in force
    /// binds (`EDUGO_CONFIG` or the XDG place: `--help` comes before `--config` is read).
    public static var keysManual: String {
        // The help is written before the options are parsed: `--config` is read here.
        let option = ConfigCommand.configOption(in: Array(CommandLine.arguments.dropFirst()))
        let choice = try? ConfigCommand.choose(option: option, profile: nil, environment: ProcessInfo.processInfo.environment).get()
        return GlobalKeys.manual(choice?.settings.keys ?? .none, texts: commandLineTexts)
    }

    private static func makeLogger(directory: URL, level: AppConfiguration.LogLevel) -> Logger {
        let path = directory.appendingPathComponent("tui.log").path
        let logLevel = Logger.Level(rawValue: level.rawValue) ?? .info
        guard let descriptor = FileLogHandler.open(path: path) else {
            return Logger(label: "edugo", factory: { _ in SwiftLogNoOpLogHandler() })
        }
        return Logger(
            label: "edugo",
            factory: { label in
                FileLogHandler(descriptor: descriptor, label: label, level: logLevel)
            })
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data("tui: \(TerminalText.sanitize(message))\n".utf8))
    }
}
