import ArgumentParser
import Foundation
import Logging
import Platform
import PostgresStore
import Presentation
import RemoteStore
import ServerTestSupport
import SharedKernel
import Storage
import TerminalUI
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

// tui-bench: generates catalogs, drives the real `tui` in a pseudo-terminal and reports
// medians, next to fzf and whiptail on the same titles. See BENCHMARKS.md.

/// The command line, parsed as the other executables parse theirs (`--help` says it all).
struct Options: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui-bench",
        abstract: "Generates catalogs, drives the real tui in a pseudo-terminal and reports medians (BENCHMARKS.md).")

    @Option(
        name: .long, help: "Catalog sizes, comma-separated (default: 10000,100000,1000000).",
        transform: { text in
            let sizes = text.split(separator: ",").compactMap { Int($0) }
            guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else { throw ValidationError("sizes are positive numbers: \(text)") }
            return sizes
        })
    var sizes = [10_000, 100_000, 1_000_000]
    @Option(help: "Runs of each measurement.") var runs = 15
    @Option(help: "Where generated catalogs and databases are kept between runs.") var work = ".build-bench"
    @Option(help: "The tui to drive (default: the one built next to this benchmark).") var tui: String?
    @Flag(inversion: .prefixedNo, help: "Also fzf and whiptail on the same titles.") var peers = true
    @Flag(help: "Also the app in remote mode, against edugo-server (built next to tui) on loopback.") var remote = false
    @Option(
        name: .customLong("load-postgres"),
        help: "Only load the generated catalog of the first size into this PostgreSQL database (for server-bench).")
    var loadPostgres: String?
    @Option(help: "Only the live figures: this many changes made elsewhere, timed to the frame that shows them.") var live: Int?
    @Flag(help: "Only lessons: opening and paging a long lesson, and the review tab.") var lessons = false
    @Flag(name: .customLong("config-startup"), help: "Only start-up with a config file beside start-up without one.")
    var configStartup = false
    @Flag(help: "Only the catalog orders' pages beside title order's (and in PostgreSQL with --postgres).") var orders = false
    @Option(help: "A PostgreSQL database for --orders, or the cluster's admin URL for --imports.") var postgres: String?
    @Flag(help: "Only imports: each size into a new SQLite database (and PostgreSQL with --postgres).") var imports = false
}

let options = Options.parseOrExit()
if let url = options.loadPostgres {
    let size = options.sizes.first ?? 1_000_000
    let started = ContinuousClock.now
    let database = try PostgresDatabase(url: url, logger: Logger(label: "tui-bench"))
    let pool = Task { await database.run() }
    let courses = GeneratedCatalog.courses(count: size)
    try await database.migrate {
        PostgresSeed(
            courses: courses.map { (course: $0, lessons: nil) },
            demoName: DemoAccount.name, demoEmail: DemoAccount.email, demoPasswordHash: try PasswordHasher().hash(DemoAccount.password)
        )
    }
    pool.cancel()
    print("loaded \(size) courses into \(url) in \(ContinuousClock.now - started)")
    exit(0)
}
if options.imports {
    for size in options.sizes { try await ImportBench.run(size: size, runs: options.runs, postgresAdmin: options.postgres) }
    exit(0)
}
if options.orders {
    for size in options.sizes { try await OrderBench.run(size: size, runs: options.runs, postgres: options.postgres) }
    exit(0)
}
let tui = options.tui ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tui").path
guard FileManager.default.isExecutableFile(atPath: tui) else {
    throw BenchError.failed("no tui at \(tui); build it with: swift build -c release --product tui")
}
let clock = ContinuousClock()
let environment = [
    "TERM": "xterm-256color", "HOME": NSHomeDirectory(), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
]

if options.configStartup {
    let size = options.sizes.first ?? 10_000
    let directory = try await catalog(size: size)
    let file = URL(fileURLWithPath: options.work).appendingPathComponent("config.toml")
    // Every kind of setting: a theme with roles changed, a wide layout, profiles.
    try """
    wide_layout_columns = 160

    [theme]
    name = "light"
    accent = "#d75f00"
    selection = { fg = "black", bg = "153" }
    marks = "bright-yellow"

    [profiles.work]
    server = "https://edugo.example.org"
    email = "ada@example.org"
    """.write(to: file, atomically: true, encoding: .utf8)
    print("config start-up: a catalog of \(size) courses, signed in, to the first page; \(options.runs) runs each, interleaved")
    var without: [Double] = []
    var with: [Double] = []
    for _ in 0..<options.runs {
        for withConfig in [false, true] {
            let arguments = ["--data-dir", directory.path, "--config", withConfig ? file.path : "/nonexistent/edugo-bench.toml"]
            // A missing file named by --config is refused: without, the flag points nowhere the
            // app reads, by EDUGO_CONFIG unset and XDG_CONFIG_HOME at an empty folder instead.
            let terminal = try PseudoTerminal(
                tui, withConfig ? arguments : ["--data-dir", directory.path],
                environment: environment.merging(["XDG_CONFIG_HOME": options.work + "/no-config"], uniquingKeysWith: { $1 }))
            let loaded = "1/\(size)"
            let output = terminal.readUntilQuiet(until: loaded)
            guard let last = output.lastByteAt, output.text.contains(loaded) else {
                throw BenchError.failed("the catalog never showed \(loaded)")
            }
            let time = milliseconds(last - terminal.spawnedAt)
            if withConfig { with.append(time) } else { without.append(time) }
        }
    }
    print("  without a config file: \(format(median(without))) (p99 \(format(percentile(without, 0.99))))")
    print("  with one:              \(format(median(with))) (p99 \(format(percentile(with, 0.99))))")
    // The command palette on the catalog: opened with every action listed, then a letter typed
    // (a fuzzy filter of them all), then closed; the time to the end of each frame.
    var opens: [Double] = []
    var keystrokes: [Double] = []
    let terminal = try PseudoTerminal(tui, ["--data-dir", directory.path], environment: environment)
    _ = terminal.readUntilQuiet(until: "1/\(size)")
    for _ in 0..<options.runs {
        let (open, _) = press(":", in: terminal)
        let (keystroke, _) = press("r", in: terminal)
        _ = press("\u{1B}", in: terminal)
        opens.append(open)
        keystrokes.append(keystroke)
    }
    print(
        "  palette: open \(format(median(opens))) (p99 \(format(percentile(opens, 0.99)))), a letter typed \(format(median(keystrokes))) (p99 \(format(percentile(keystrokes, 0.99))))"
    )
    exit(0)
}

if options.lessons {
    let cards = 10_000
    print(
        "lessons: a 256 KiB lesson and a 1 KiB one, opened and paged (PgDn ×30); the review tab with \(cards) cards due; \(options.runs) runs"
    )
    let directory = try await LessonBench.database(work: options.work, cards: cards)
    for (columns, rows) in [(UInt16(80), UInt16(24)), (200, 50)] {
        for (number, name) in [(1, "256 KiB"), (2, "1 KiB")] {
            var opens: [Double] = []
            var pages: [Double] = []
            for _ in 0..<options.runs {
                let figures = try measureLesson(directory, number: number, columns: columns, rows: rows)
                opens.append(figures.open)
                pages += figures.pageDown
            }
            print(
                "  \(columns)×\(rows), \(name): open \(format(median(opens))) (p99 \(format(percentile(opens, 0.99)))), PgDn \(format(median(pages))) (p99 \(format(percentile(pages, 0.99))))"
            )
        }
    }
    if options.peers {
        for (columns, rows) in [(UInt16(80), UInt16(24)), (200, 50)] {
            var opens: [Double] = []
            var pages: [Double] = []
            for _ in 0..<options.runs {
                let figures = try measurePeerLesson(work: options.work, columns: columns, rows: rows)
                opens.append(figures.open)
                pages += figures.pageDown
            }
            print(
                "  peer cmark | less -R, \(columns)×\(rows), 256 KiB: first screen \(format(median(opens))) (p99 \(format(percentile(opens, 0.99)))) from start, PgDn \(format(median(pages))) (p99 \(format(percentile(pages, 0.99))))"
            )
        }
    }
    // Where an open's time goes, in this process: parsing the 256 KiB body, laying it out.
    let body = LessonBench.body(bytes: 262_000)
    var parses: [Double] = []
    var layouts: [Double] = []
    for _ in 0..<options.runs {
        let started = ContinuousClock.now
        let text = MarkdownText(parsing: body)
        let parsed = ContinuousClock.now
        _ = text.layout(width: 78)
        parses.append(milliseconds(parsed - started))
        layouts.append(milliseconds(ContinuousClock.now - parsed))
    }
    print("  256 KiB in process: parse \(format(median(parses))), lay out at 78 columns \(format(median(layouts)))")
    // Local, then (with --remote) through edugo-server on the same database.
    var stores: [(name: String, arguments: [String])] = [("local", ["--data-dir", directory.path])]
    var server: ServerProcess?
    if options.remote {
        let (running, arguments) = try await remoteApp(on: directory, client: "remote-review-client")
        stores.append(("remote", arguments))
        server = running
    }
    var gradedSoFar = 0
    for store in stores {
        for (columns, rows) in [(UInt16(80), UInt16(24)), (200, 50)] {
            var firsts: [Double] = []
            var grades: [Double] = []
            for _ in 0..<options.runs {
                // Each run grades cards of its own: the deck's next 20 of the 10,000.
                let figures = try measureReview(store.arguments, cards: cards - gradedSoFar, grades: 20, columns: columns, rows: rows)
                gradedSoFar += figures.grades.count
                firsts.append(figures.first)
                grades += figures.grades
            }
            print(
                "  review tab, \(store.name), \(columns)×\(rows), \(cards) due: first frame \(format(median(firsts))) (p99 \(format(percentile(firsts, 0.99)))); a grade to the next card \(format(median(grades))) (p99 \(format(percentile(grades, 0.99))), \(grades.count) grades)"
            )
        }
    }
    server?.signal(SIGTERM)
    // The scheduler alone: 100,000 reviews of one card replayed (what carrying a large
    // history over costs), fuzz on.
    let replays = (0..<options.runs).map { _ in LessonBench.replayReviews(100_000) }
    print("  FSRS-6: 100,000 reviews replayed \(format(median(replays))) (p99 \(format(percentile(replays, 0.99))))")
    exit(0)
}

if let changes = options.live {
    for size in options.sizes {
        print("live, catalog of \(size) courses, \(changes) changes (a favourite of the first course, on and off)")
        let directory = try await catalog(size: size)
        let database = try AppDatabase.open(directory: directory, seedCatalog: { [] })
        let learner = try await SQLiteSessionRepository(database: database, hasher: PasswordHasher()).signIn(
            email: "demo@edugo.dev", password: "edugo-demo")
        guard let first = try await SQLiteCourseRepository(database: database).page(matching: "", at: .first, limit: 1).first else {
            throw BenchError.failed("an empty catalog")
        }
        let favourites = SQLiteFavouritesRepository(database: database)
        let local = try await measureLive(size: size, arguments: ["--data-dir", directory.path], changes: changes) { isFavourite in
            try await favourites.setFavourite(isFavourite, userID: learner.id, courseID: first.course.id)
        }
        printLive("local, another process on the data directory", local, changes: changes)
        if options.remote {
            let server = try await ServerProcess(directory: TemporaryDirectory(url: directory), arguments: ["--log-level", "error"])
            defer { server.signal(SIGTERM) }
            let http = RemoteHTTPClient()
            var stores: [RemoteStore] = []
            for name in ["remote-client-\(size)", "remote-writer-\(size)"] {
                let client = URL(fileURLWithPath: options.work).appendingPathComponent(name)
                try? FileManager.default.removeItem(at: client)
                let store = RemoteStore(server: server.baseURL, dataDirectory: client, httpClient: http)
                _ = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo")
                stores.append(store)
            }
            let writer = stores[1]
            let client = URL(fileURLWithPath: options.work).appendingPathComponent("remote-client-\(size)")
            let remote = try await measureLive(
                size: size, arguments: ["--data-dir", client.path, "--server", server.baseURL.absoluteString], changes: changes
            ) { isFavourite in
                try await writer.setFavourite(isFavourite, userID: learner.id, courseID: first.course.id)
            }
            printLive("remote, another client of the server", remote, changes: changes)
            await http.shutdown()
        }
    }
    exit(0)
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
}

func format(_ value: Double, _ unit: String = "ms") -> String {
    value.isNaN ? "—" : String(format: value < 10 ? "%.2f %@" : "%.1f %@", value, unit)
}

// MARK: - Catalogs

/// A data directory holding `size` generated courses and a signed-in demo learner; made once
/// and kept under the work directory.
func catalog(size: Int) async throws -> URL {
    let directory = URL(fileURLWithPath: options.work).appendingPathComponent("catalog-\(size)")
    let ready = directory.appendingPathComponent("ready")
    if FileManager.default.fileExists(atPath: ready.path) { return directory }
    try? FileManager.default.removeItem(at: directory)
    let start = clock.now
    let courses = GeneratedCatalog.courses(count: size)
    let database = try AppDatabase.open(directory: directory, seedCatalog: { [] })
    let summary = try database.importCourses(courses)
    let learner = try await SQLiteSessionRepository(database: database, hasher: PasswordHasher())
        .signIn(email: "demo@edugo.dev", password: "edugo-demo")
    // The learner's own, for is:favourite and is:enrolled: about one course in a thousand
    // each (a course the rules refuse, full or locked, is simply not joined).
    let favourites = SQLiteFavouritesRepository(database: database)
    let enrollments = SQLiteEnrollmentRepository(database: database)
    for number in stride(from: 997, through: size, by: 997) {
        try await favourites.setFavourite(true, userID: learner.id, courseID: CourseID(GeneratedCatalog.id(number)))
    }
    for number in stride(from: 1_009, through: size, by: 1_009) {
        _ = try? await enrollments.enroll(userID: learner.id, courseID: CourseID(GeneratedCatalog.id(number)))
    }
    let titles = courses.map(\.title).joined(separator: "\n") + "\n"
    try titles.write(to: directory.appendingPathComponent("titles.txt"), atomically: true, encoding: .utf8)
    _ = FileManager.default.createFile(atPath: ready.path, contents: Data())
    print("  generated \(summary.added) courses in \(format(milliseconds(clock.now - start) / 1_000, "s"))")
    return directory
}

// MARK: - Ours

struct Figures {
    var startup: [Double] = []
    /// Start to the catalog's count on screen, drawn with its rows: what follows it (a list
    /// read again as the event stream opens, its spinner) is in `startup`, not here.
    var rowsShown: [Double] = []
    var down: [Double] = []
    var downBytes: [Double] = []
    var pageDown: [Double] = []
    var pageDownBytes: [Double] = []
    var search: [Double] = []
    var searchBytes: [Double] = []
    var peakMemory: [Double] = []
    var peakBeforeFilters: [Double] = []
    var unchangedKeystrokes = 0
    /// Per filter query: its keystrokes that redrew results, to the end of their frames.
    var filter: [String: [Double]] = [:]
    /// Every filter keystroke that redrew results.
    var filterKeystrokes: [Double] = []
    /// Per filter query: its slowest keystroke, and what had been typed with it.
    var filterSlowest: [String: (typed: String, time: Double)] = [:]
    /// Per filter query: End in its results (the last page, read backwards), to end of frame.
    var filterEnd: [String: [Double]] = [:]
    /// Per filter query: how many courses it keeps, as the store counts them.
    var filterCount: [String: String] = [:]
}

/// Filters alone and combined with words and each other, from the broadest to the narrowest
/// there is: `cat:numismatics` keeps 10 courses of a million.
let filterQueries = [
    "level:adv", "cat:data", "is:free", "is:open", "is:enrolled", "is:favourite", "cat:numismatics",
    "swift level:beg is:open", "data is:favourite", "garcia is:free", "s cat:numismatics", "cat:numismatics is:open",
]

/// Sends one key and times it to the end of the frame it causes.
func press(_ key: String, in terminal: PseudoTerminal) -> (Double, Double) {
    let sent = terminal.send(key)
    let output = terminal.readUntilQuiet()
    guard let last = output.lastByteAt else { return (.nan, 0) }
    return (milliseconds(last - sent), Double(output.bytes.count))
}

/// `edugo-server` on `directory`'s database, on loopback, and the app's arguments to use it
/// from a data directory of its own (`client`, under the work folder) signed in as the demo
/// learner. Stop the server when done.
func remoteApp(on directory: URL, client name: String) async throws -> (ServerProcess, [String]) {
    let server = try await ServerProcess(directory: TemporaryDirectory(url: directory), arguments: ["--log-level", "error"])
    let client = URL(fileURLWithPath: options.work).appendingPathComponent(name)
    try? FileManager.default.removeItem(at: client)
    let http = RemoteHTTPClient()
    _ = try await RemoteStore(server: server.baseURL, dataDirectory: client, httpClient: http).signIn(
        email: "demo@edugo.dev", password: "edugo-demo")
    await http.shutdown()
    return (server, ["--data-dir", client.path, "--server", server.baseURL.absoluteString])
}

/// `arguments` choose the store: the local database, or `--server` with a session.
func measureOurs(size: Int, arguments: [String], between: Duration = .zero) throws -> Figures {
    var figures = Figures()
    let loaded = "1/\(size)"
    for _ in 0..<options.runs {
        // A remote start is measured with the server idle: the run before it leaves the server
        // writing the learner's whole lists (for a learner with 10,000 enrollments, 5 MB each,
        // about 0.3 s of a core) after its first frame was measured and it was closed.
        Thread.sleep(forTimeInterval: Double(between.components.seconds) + Double(between.components.attoseconds) / 1e18)
        let terminal = try PseudoTerminal(tui, arguments, environment: environment)
        let output = terminal.readUntilQuiet(until: loaded)
        guard let last = output.lastByteAt, output.text.contains(loaded) else {
            throw BenchError.failed("the catalog never showed \(loaded)")
        }
        figures.startup.append(milliseconds(last - terminal.spawnedAt))
        if let shown = output.markerAt { figures.rowsShown.append(milliseconds(shown - terminal.spawnedAt)) }
    }

    let terminal = try PseudoTerminal(tui, arguments, environment: environment)
    _ = terminal.readUntilQuiet(until: loaded)
    for _ in 0..<options.runs * 2 {
        let (time, bytes) = press("\u{1B}[B", in: terminal)
        figures.down.append(time)
        figures.downBytes.append(bytes)
    }
    for _ in 0..<options.runs {
        let (time, bytes) = press("\u{1B}[6~", in: terminal)
        figures.pageDown.append(time)
        figures.pageDownBytes.append(bytes)
    }
    for query in ["swift", "garcia", "data fund", "kubernetes", "über", "français", "yoga"] {
        _ = press("/", in: terminal)
        for character in query {
            let (time, bytes) = press(String(character), in: terminal)
            // A keystroke whose first page of results is the same as before redraws only the
            // typed character, and its frame ends before the query does: it says nothing
            // about the search, so only keystrokes that redrew results count.
            guard bytes > 32 else {
                figures.unchangedKeystrokes += 1
                continue
            }
            figures.search.append(time)
            figures.searchBytes.append(bytes)
        }
        _ = press("\u{1B}", in: terminal)
    }
    if let peak = terminal.peakResidentBytes() { figures.peakBeforeFilters.append(Double(peak) / 1_048_576) }
    // Filters, typed a character at a time like the searches: every keystroke that redrew
    // results counts (the words and half-typed filters on the way included), then End in
    // the results (their last page, read backwards).
    _ = press("/", in: terminal)
    for _ in 0..<max(1, options.runs / 5) {
        for query in filterQueries {
            _ = press("\u{15}", in: terminal)  // Ctrl-U: the whole catalog again
            var typed = ""
            for character in query {
                typed.append(character)
                let (time, bytes) = press(String(character), in: terminal)
                guard bytes > 32 else { continue }
                figures.filter[query, default: []].append(time)
                figures.filterKeystrokes.append(time)
                if time > figures.filterSlowest[query]?.time ?? 0 { figures.filterSlowest[query] = (typed, time) }
            }
            _ = press("\r", in: terminal)  // keep the filter: End moves the list
            let (end, bytes) = press("\u{1B}[F", in: terminal)
            // One page of results: End moves nothing.
            if bytes > 32 { figures.filterEnd[query, default: []].append(end) }
            _ = press("/", in: terminal)
        }
    }
    _ = press("\u{1B}", in: terminal)
    if let peak = terminal.peakResidentBytes() { figures.peakMemory.append(Double(peak) / 1_048_576) }
    return figures
}

/// What each filter keeps for the signed-in learner, counted by the store the app reads.
func filterCounts(directory: URL) async throws -> [String: String] {
    let database = try AppDatabase.open(directory: directory, seedCatalog: { [] })
    let learner = try await SQLiteSessionRepository(database: database).restoreSession()
    let courses = SQLiteCourseRepository(database: database)
    var counts: [String: String] = [:]
    for query in filterQueries {
        counts[query] =
            switch try await courses.count(CatalogQuery.parse(query), for: learner?.id) {
            case .exactly(let count): "\(count)"
            case .atLeast(let count): "\(count)+"
            }
    }
    return counts
}

// MARK: - Peers

/// `fzf --filter QUERY` over the titles: the whole run, start to exit.
func measureFzf(titles: URL, query: String) throws -> [Double] {
    guard let fzf = ["/usr/bin/fzf", "/usr/local/bin/fzf"].first(where: FileManager.default.isExecutableFile(atPath:)) else { return [] }
    var times: [Double] = []
    for _ in 0..<options.runs {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, titles.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = ([fzf, "--filter", query] as [String]).map { strdup($0) } + [nil]
        var pid: pid_t = 0
        let start = clock.now
        guard posix_spawn(&pid, fzf, &actions, nil, argv, environ) == 0 else { break }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        times.append(milliseconds(clock.now - start))
        argv.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
    }
    return times
}

/// `whiptail --menu` with the titles: start to first frame, and one ↓.
func measureWhiptail(titles: [String]) throws -> (startup: [Double], down: [Double], downBytes: [Double]) {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/whiptail") else { return ([], [], []) }
    let items = titles.enumerated().flatMap { ["\($0.offset + 1)", $0.element] }
    var result: (startup: [Double], down: [Double], downBytes: [Double]) = ([], [], [])
    for _ in 0..<options.runs {
        let terminal = try PseudoTerminal(
            "/usr/bin/whiptail", ["--menu", "EduGo catalog", "24", "80", "16"] + items, environment: environment)
        let output = terminal.readUntilQuiet(quiet: .milliseconds(150))
        guard let last = output.lastByteAt else { continue }
        result.startup.append(milliseconds(last - terminal.spawnedAt))
        let (time, bytes) = press("\u{1B}[B", in: terminal)
        result.down.append(time)
        result.downBytes.append(bytes)
    }
    return result
}

// MARK: - Run

print("tui-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores, runs \(options.runs), tui \(tui)")
var rows: [(String, [String])] = []
var ours: [Int: Figures] = [:]
var remote: [Int: Figures] = [:]
var fzfTimes: [Int: Double] = [:]
for size in options.sizes {
    print("catalog of \(size) courses")
    let directory = try await catalog(size: size)
    var figures = try measureOurs(size: size, arguments: ["--data-dir", directory.path])
    figures.filterCount = try await filterCounts(directory: directory)
    ours[size] = figures
    if options.remote {
        // The same database behind edugo-server on loopback, the app signed in through it.
        let (server, arguments) = try await remoteApp(on: directory, client: "remote-client-\(size)")
        defer { server.signal(SIGTERM) }
        var remoteFigures = try measureOurs(size: size, arguments: arguments, between: .seconds(1))
        remoteFigures.filterCount = figures.filterCount
        remote[size] = remoteFigures
    }
    if options.peers {
        let titles = directory.appendingPathComponent("titles.txt")
        fzfTimes[size] = median(try ["swift", "garcia", "data fund", "kubernetes"].flatMap { try measureFzf(titles: titles, query: $0) })
    }
}

@MainActor
func line(_ label: String, _ values: (Figures) -> [Double], unit: String = "ms", of figures: [Int: Figures] = ours) {
    let cells = options.sizes.map { size in format(median(values(figures[size]!)), unit) }
    print(
        label.padding(toLength: 34, withPad: " ", startingAt: 0)
            + cells.map { $0.padding(toLength: 14, withPad: " ", startingAt: 0) }.joined())
}

print("")
print(
    "EduGo tui (median)".padding(toLength: 34, withPad: " ", startingAt: 0)
        + options.sizes.map { "\($0)".padding(toLength: 14, withPad: " ", startingAt: 0) }.joined())
line("start to first catalog frame", \.startup)
line("start to rows shown (no redraws)", \.rowsShown)
line("↓ to end of frame", \.down)
line("↓ bytes written", \.downBytes, unit: "B")
line("PgDn to end of frame", \.pageDown)
line("PgDn bytes written", \.pageDownBytes, unit: "B")
line("search keystroke to results", \.search)
line("search keystroke bytes", \.searchBytes, unit: "B")
print(
    "search keystrokes that redrew results".padding(toLength: 34, withPad: " ", startingAt: 0)
        + options.sizes.map { size in
            let figures = ours[size]!
            return "\(figures.search.count)/\(figures.search.count + figures.unchangedKeystrokes)".padding(
                toLength: 14, withPad: " ", startingAt: 0)
        }.joined())
line("peak resident memory, browsing", \.peakBeforeFilters, unit: "MB")
line("peak resident memory, + filters", \.peakMemory, unit: "MB")

line("filter keystroke to results", \.filterKeystrokes)

print("")
print("per filter: keystroke median / slowest keystroke / End (matches)")
for query in filterQueries {
    let cells = options.sizes.map { size in
        let figures = ours[size]!
        let count = figures.filterCount[query] ?? "?"
        let times = figures.filter[query] ?? []
        let slowest = figures.filterSlowest[query].map { "\(format($0.time)) at \"\($0.typed)\"" } ?? "—"
        return "\(format(median(times))) / \(slowest) / \(format(median(figures.filterEnd[query] ?? []))) (\(count))"
    }
    print(
        ("  " + query).padding(toLength: 28, withPad: " ", startingAt: 0)
            + cells.map { $0.padding(toLength: 60, withPad: " ", startingAt: 0) }.joined())
}

if options.remote {
    print("")
    print(
        "tui --server (median)".padding(toLength: 34, withPad: " ", startingAt: 0)
            + options.sizes.map { "\($0)".padding(toLength: 14, withPad: " ", startingAt: 0) }.joined())
    line("start to first catalog frame", \.startup, of: remote)
    line("start to rows shown (no redraws)", \.rowsShown, of: remote)
    line("↓ to end of frame", \.down, of: remote)
    line("PgDn to end of frame", \.pageDown, of: remote)
    line("search keystroke to results", \.search, of: remote)
    line("filter keystroke to results", \.filterKeystrokes, of: remote)
    line("peak resident memory, + filters", \.peakMemory, unit: "MB", of: remote)
}

if let first = options.sizes.first, let last = options.sizes.last, first != last {
    print("")
    print("ratio \(last) / \(first):")
    for (label, values) in [
        ("startup", \Figures.startup), ("↓", \.down), ("PgDn", \.pageDown), ("search", \.search), ("filter", \.filterKeystrokes),
        ("memory", \.peakMemory),
    ] {
        let ratio = median(ours[last]![keyPath: values]) / median(ours[first]![keyPath: values])
        print("  \(label): \(String(format: "%.2f", ratio))×")
    }
}

if options.peers {
    print("")
    print("peers on the same titles (median; ratio = ours / theirs)")
    for size in options.sizes {
        let fzf = fzfTimes[size] ?? .nan
        let search = median(ours[size]!.search)
        print(
            "  \(size): fzf --filter \(format(fzf)), our search keystroke \(format(search)), ratio \(String(format: "%.3f", search / fzf))")
    }
    if let first = options.sizes.first {
        let directory = URL(fileURLWithPath: options.work).appendingPathComponent("catalog-\(first)")
        let titles = try String(contentsOf: directory.appendingPathComponent("titles.txt"), encoding: .utf8).split(separator: "\n").map(
            String.init)
        let whiptail = try measureWhiptail(titles: Array(titles.prefix(10_000)))
        let figures = ours[first]!
        print(
            "  whiptail --menu, \(min(10_000, titles.count)) items: start \(format(median(whiptail.startup))), ↓ \(format(median(whiptail.down))) and \(format(median(whiptail.downBytes), "B"))"
        )
        print(
            "  ours at \(first): start \(format(median(figures.startup))), ↓ \(format(median(figures.down))) and \(format(median(figures.downBytes), "B"))"
        )
        print(
            "  ratio ours / whiptail: start \(String(format: "%.3f", median(figures.startup) / median(whiptail.startup))), ↓ time \(String(format: "%.3f", median(figures.down) / median(whiptail.down))), ↓ bytes \(String(format: "%.3f", median(figures.downBytes) / median(whiptail.downBytes)))"
        )
    }
}
