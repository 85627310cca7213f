import Foundation
import Logging
import PostgresNIO
import SharedKernel

/// A PostgreSQL database shared by any number of server processes: a pool of connections
/// (PostgresNIO's client, which must be running: `run()`, or as a service) and the
/// transactions every store here goes through.
public final class PostgresDatabase: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// `host:port/database`, for messages.
    let target: String
    /// How many calls wait for a connection of the pool and how many hold one (metrics).
    public let use = DatabaseUse()
    /// How long one call of a store may wait for a connection and its answers together (its
    /// `limit`), with the calls under way: a database that went away is a storage failure (503)
    /// within it, never a wait without end. None for an import.
    private let deadlines: Deadlines<ContinuousClock>?
    /// A call (with a time limit) slower than this is logged with its phases (`CallPhases`).
    let slowCallThreshold: Duration?

    /// `postgres://USER:PASS@HOST:PORT/DB` (or `postgresql://`); `?sslmode=require` asks for TLS.
    /// A server gives `callTimeLimit`; an import, which may take minutes, gives none.
    /// `slowCallThreshold`: calls slower than it are logged as warnings, with where their time
    /// went (only calls with a time limit are timed).
    public init(url: String, logger: Logger, callTimeLimit: Duration? = nil, slowCallThreshold: Duration? = nil)
        throws(PostgresURLError)
    {
        var configuration = try Self.configuration(url)
        if let callTimeLimit {
            // A refused connection is tried again within the call's limit, not after it; a
            // statement left behind by a call past its limit is ended by the database.
            configuration.options.connectTimeout = min(configuration.options.connectTimeout, callTimeLimit)
            let milliseconds = callTimeLimit / .milliseconds(1)
            configuration.options.additionalStartupParameters.append(("statement_timeout", String(Int(milliseconds))))
        }
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
        self.target = "\(configuration.host ?? "?"):\(configuration.port ?? 5432)/\(configuration.database ?? "")"
        deadlines = callTimeLimit.map { Deadlines(limit: $0, clock: ContinuousClock()) }
        self.slowCallThreshold = slowCallThreshold
    }

    /// Serves connections until the task is cancelled. Queries wait until it runs.
    public func run() async {
        await client.run()
    }

    /// The client as a service, for a service group.
    public var service: PostgresClient { client }

    static func configuration(_ text: String) throws(PostgresURLError) -> PostgresClient.Configuration {
        guard let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme ?? ""),
            let host = url.host, !host.isEmpty, let user = url.user, !user.isEmpty
        else { throw PostgresURLError(url: Self.redacted(text)) }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        let mode = url.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        let tls: PostgresClient.Configuration.TLS
        switch mode {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        default: throw PostgresURLError(url: Self.redacted(text))
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: user.removingPercentEncoding ?? user,
            password: url.password?.removingPercentEncoding, database: database.isEmpty ? nil : database, tls: tls
        )
        configuration.options.maximumConnections = 20
        return configuration
    }

    /// The URL without its password, for messages.
    public static func redacted(_ text: String) -> String {
        guard var url = URLComponents(string: text), url.password != nil else { return text }
        url.password = "***"
        return url.string ?? "postgres://…"
    }

    // MARK: - Transactions

    /// Runs `body` in one transaction (READ COMMITTED; the stores take row locks where a race
    /// could break a rule). An `AppError` thrown inside comes out as it is; anything else is a
    /// storage failure of `kind`. The changes `body` notes (`PostgresChangeRows.record`) are
    /// written after it, as the transaction's last statement, whatever order it wrote them in:
    /// the note's lock orders every server's writes, so one taken early would be held (and
    /// waited for) through the rest, and could close a cycle of waits with another writer.
    func transaction<T: Sendable>(
        _ kind: DataOperation,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(AppError) -> T {
        let client = self.client
        let logger = self.logger
        let use = self.use
        // Counted in the call, which a caller past its limit leaves running.
        return try await limited(kind) { phases in
            let visit = use.arrive()
            defer { visit.leave() }
            return try await client.withTransaction(logger: logger) { connection in
                visit.hold()
                phases?.mark(.leased)
                defer { phases?.mark(.answered) }
                let notes = PostgresChangeRows.Deferred()
                let value = try await PostgresChangeRows.$deferred.withValue(notes) { try await body(connection) }
                try await PostgresChangeRows.write(notes.noted, in: connection, logger: logger)
                return value
            }
        }
    }

    /// A write of one learner's data: `transaction` with the learner's row locked first, until
    /// it ends, so that learner's writes take turns on every server and take their locks in
    /// one order, the learner's first (a queued batch, the routes that write what a batch
    /// writes). `.notSignedIn` for a learner who is gone. `NO KEY UPDATE`, not `UPDATE`: a
    /// route's insert of a row that names the learner (a review's log row) checks its key with
    /// a `KEY SHARE` lock, which `UPDATE` would make wait for a batch while the batch waits for
    /// the card that route holds (a deadlock, one of them failed).
    func transaction<T: Sendable>(
        _ kind: DataOperation, learner userID: UserID,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(AppError) -> T {
        let logger = self.logger
        return try await transaction(kind) { connection in
            guard
                try await connection.query("SELECT 1 FROM learner WHERE id = \(userID.rawValue) FOR NO KEY UPDATE", logger: logger)
                    .decode(Int.self).first(where: { _ in true }) != nil
            else { throw AppError.notSignedIn }
            return try await body(connection)
        }
    }

    /// A read outside a transaction (one statement sees one snapshot).
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(AppError) -> T {
        let client = self.client
        let use = self.use
        // Counted in the call, which a caller past its limit leaves running.
        return try await limited(.reading) { phases in
            let visit = use.arrive()
            defer { visit.leave() }
            return try await client.withConnection { connection in
                visit.hold()
                phases?.mark(.leased)
                defer { phases?.mark(.answered) }
                return try await body(connection)
            }
        }
    }

    /// Whether the database answers, within the call's limit (`GET /ready`).
    public func ping() async throws(AppError) {
        let logger = self.logger
        _ = try await read { connection in try await connection.query("SELECT 1", logger: logger) }
    }

    /// A transaction with no time limit: migrations, which may rebuild a large table.
    func unlimitedTransaction<T: Sendable>(
        _ kind: DataOperation,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(AppError) -> T {
        do {
            // Outside any store transaction's notes: were one inherited, it would write them.
            return try await PostgresChangeRows.$deferred.withValue(nil) {
                try await client.withTransaction(logger: logger) { connection in try await body(connection) }
            }
        } catch {
            throw Self.appError(error, kind)
        }
    }

    /// `call` within the call's time limit: past it the caller gets a storage failure at once and the
    /// call is cancelled and left to end by itself (a statement stuck on a lock or a silent
    /// network does not answer cancellation; the database ends it at its statement timeout).
    private func limited<T: Sendable>(
        _ kind: DataOperation, _ call: @escaping @Sendable (CallPhases?) async throws -> T
    ) async throws(AppError) -> T {
        guard let deadlines else {
            do { return try await call(nil) } catch { throw Self.appError(error, kind) }
        }
        let phases = slowCallThreshold.map { _ in CallPhases() }
        defer { if let phases, let slowCallThreshold { phases.logIfSlower(than: slowCallThreshold, kind, logger) } }
        do {
            return try await deadlines.run {
                phases?.mark(.started)
                return try await call(phases)
            }
        } catch is DeadlineExceeded {
            throw .storage(kind, detail: "PostgreSQL at \(target) did not answer within \(deadlines.limit)")
        } catch {
            throw Self.appError(error, kind)
        }
    }

    /// One statement of the caller's, outside a transaction (`CREATE DATABASE` cannot run in one).
    public func execute(_ sql: String) async throws(AppError) {
        let logger = self.logger
        _ = try await read { connection in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
    }

    static func appError(_ error: any Error, _ kind: DataOperation) -> AppError {
        if let error = error as? AppError { return error }
        if let transaction = error as? PostgresTransactionError {
            if let closure = transaction.closureError { return appError(closure, kind) }
            if let begin = transaction.beginError { return appError(begin, kind) }
            if let commit = transaction.commitError { return appError(commit, kind) }
        }
        if error is CancellationError { return .cancelled }
        if let postgres = error as? PSQLError {
            // What the server said (code and message), never the query or its values.
            let detail = postgres.serverInfo.map { "\($0[.sqlState] ?? "?"): \($0[.message] ?? "")" } ?? "\(postgres.code)"
            return .storage(kind, detail: "PostgreSQL \(detail)")
        }
        return .storage(kind, detail: "PostgreSQL: \(error)")
    }
}

/// The database did not answer at start.
public struct PostgresUnreachable: Error, CustomStringConvertible {
    public let target: String
    public let limit: Duration
    public var description: String { "PostgreSQL at \(target) did not answer within \(limit.components.seconds) s" }
}

/// `--database` is not a PostgreSQL URL this store can use.
public struct PostgresURLError: Error, CustomStringConvertible {
    public let url: String
    public var description: String {
        "Not a PostgreSQL URL: \(url) (postgres://USER:PASS@HOST:PORT/DB, optionally ?sslmode=require)"
    }
}
