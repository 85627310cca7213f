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

    /// `postgres://USER:PASS@HOST:PORT/DB` (or `postgresql://`); `?sslmode=require` asks for TLS.
    public init(url: String, logger: Logger) throws(PostgresURLError) {
        let configuration = try Self.configuration(url)
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
        self.target = "\(configuration.host ?? "?"):\(configuration.port ?? 5432)/\(configuration.database ?? "")"
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
    /// storage failure of `kind`.
    func transaction<T: Sendable>(
        _ kind: DataOperation,
        _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws(AppError) -> T {
        do {
            return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch {
            throw Self.appError(error, kind)
        }
    }

    /// A read outside a transaction (one statement sees one snapshot).
    func read<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws(AppError) -> T {
        do {
            return try await client.withConnection { connection in try await body(connection) }
        } catch {
            throw Self.appError(error, .reading)
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
