import ArgumentParser
import Foundation
import Logging
import Server
import ServerComposition
import SharedKernel

@main
struct EduGoServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edugo-server",
        abstract: "The EduGo platform: the EduGo API over HTTP/JSON for any number of terminals.",
        discussion: """
            The database lives in --data-dir, else $XDG_DATA_HOME/edugo-server, else \
            ~/.local/share/edugo-server; it is seeded with the built-in catalog and the demo \
            account (demo@edugo.dev / edugo-demo). Logs are JSON lines on stderr.

            SIGTERM or Ctrl-C stops accepting and lets requests in flight finish (at most 10 s).
            """,
        version: "0.1.0",
        subcommands: [ImportCourses.self]
    )

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one and prints it.", valueName: "port"))
    var port = 8080

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("Where the database and the signing key live.", valueName: "path"))
    var dataDir: String?

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "PostgreSQL instead of SQLite: several servers on one database are one platform.",
            valueName: "postgres://USER:PASS@HOST:PORT/DB")
    )
    var database: String?

    @Option(name: .customLong("access-token-ttl"), help: ArgumentHelp("Lifetime of access tokens.", valueName: "seconds"))
    var accessTokenTTL = 900

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Option(
        name: .customLong("rate-limit"),
        help: ArgumentHelp(
            "Requests a minute from one client address to sign-in, account creation and refresh; 0 is no limit.", valueName: "n")
    )
    var rateLimit = ServerLimits().requestsPerMinute

    @Option(
        name: .customLong("connection-timeout"),
        help: ArgumentHelp("How long a connection may stay idle, or take to send a request's headers or body.", valueName: "seconds")
    )
    var connectionTimeout = Int(ServerLimits().connectionTimeout.components.seconds)

    @Option(
        name: .customLong("hash-wait"),
        help: ArgumentHelp(
            "How long a sign-in or new account may wait for a password-hashing slot before it is answered 503.",
            valueName: "seconds")
    )
    var hashWait = Int(ServerLimits().hashWait.components.seconds)

    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp(
            "Open connections in all; an eighth (at least 8) is kept from event streams for short requests. The default is below the process's limit on open files, at most 4096.",
            valueName: "n")
    )
    var maxConnections = ServerLimits().maximumConnections

    @Option(
        name: .customLong("streams-per-learner"),
        help: ArgumentHelp(
            "Event streams one learner may hold at once, across addresses; past it a new one is refused (429).", valueName: "n")
    )
    var streamsPerLearner = ServerLimits().streamsPerLearner

    @Option(
        name: .customLong("page-cache-megabytes"),
        help: ArgumentHelp(
            "Memory for the public catalog pages kept to answer again without the database; 0 keeps none.", valueName: "n")
    )
    var pageCacheMegabytes = ServerLimits().pageCacheBytes >> 20

    @Option(
        name: .customLong("metrics-address"),
        help: ArgumentHelp(
            "Serve /metrics (with /ready and /health) on a listener of its own. Without it /metrics is on the API's address when that is a loopback one, and nowhere otherwise.",
            valueName: "host:port")
    )
    var metricsAddress: String?

    func validate() throws {
        if let metricsAddress, MetricsAddress(parsing: metricsAddress) == nil {
            throw ValidationError("--metrics-address must be HOST:PORT, [IPv6]:PORT or :PORT")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard (1...86_400).contains(accessTokenTTL) else { throw ValidationError("--access-token-ttl must be 1 to 86400 seconds") }
        guard (0...1_000_000).contains(rateLimit) else { throw ValidationError("--rate-limit must be 0 to 1000000") }
        guard (1...60).contains(connectionTimeout) else { throw ValidationError("--connection-timeout must be 1 to 60 seconds") }
        guard (1...600).contains(hashWait) else { throw ValidationError("--hash-wait must be 1 to 600 seconds") }
        guard (16...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections must be 16 to 1000000") }
        guard (1...1_000).contains(streamsPerLearner) else { throw ValidationError("--streams-per-learner must be 1 to 1000") }
        guard (0...65_536).contains(pageCacheMegabytes) else { throw ValidationError("--page-cache-megabytes must be 0 to 65536") }
    }

    func run() async throws {
        var limits = ServerLimits()
        limits.requestsPerMinute = rateLimit
        limits.connectionTimeout = .seconds(connectionTimeout)
        limits.hashWait = .seconds(hashWait)
        limits.maximumConnections = maxConnections
        limits.streamsPerLearner = streamsPerLearner
        limits.pageCacheBytes = pageCacheMegabytes << 20
        let store = ServerStore(databaseURL: database, dataDirectory: dataDir, environment: ProcessInfo.processInfo.environment)
        let configuration = ServerConfiguration(
            host: host,
            port: port,
            accessTokenTTL: accessTokenTTL,
            logLevel: logLevel,
            limits: limits,
            metricsAddress: metricsAddress.flatMap(MetricsAddress.init(parsing:))
        )
        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in JSONLogHandler(label: label, level: level) }
        do {
            try await EduGoServer.run(configuration, store: store) { host, port in
                // Printed once the socket is bound: scripts and tests wait for this line.
                FileHandle.standardOutput.write(Data("EduGo server listening on http://\(host):\(port)\n".utf8))
            } onMetricsListening: { host, port in
                FileHandle.standardOutput.write(Data("EduGo metrics on http://\(host):\(port)/metrics\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("edugo-server: \(PrintableText.sanitize(String(describing: error)))\n".utf8))
            throw ExitCode(1)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// `edugo-server import-courses FILE [--data-dir PATH | --database URL]`
struct ImportCourses: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-courses",
        abstract: "Add or update courses from a course JSON file in the server's database, in one transaction."
    )

    @Argument(help: ArgumentHelp("The course JSON file.", valueName: "file"))
    var file: String

    @ParentCommand var server: EduGoServerCommand

    func run() async throws {
        let store = ServerStore(
            databaseURL: server.database, dataDirectory: server.dataDir, environment: ProcessInfo.processInfo.environment)
        let code = await ServerCourseImport.run(file: file, store: store)
        if code != 0 { throw ExitCode(code) }
    }
}
