import Foundation
import Logging
import Platform
import PostgresStore
import Server
import ServiceLifecycle
import SharedKernel
import Storage

extension EduGoServer {
    /// Opens `store` (a PostgreSQL database is migrated and seeded first if it is new) and
    /// serves it until a shutdown signal (`run(stores:configuration:…)`).
    public static func run(
        _ configuration: ServerConfiguration, store: ServerStore, onListening: @escaping @Sendable (String, Int) -> Void,
        onMetricsListening: @escaping @Sendable (String, Int) -> Void = { _, _ in }
    ) async throws {
        switch store {
        case .sqlite(let directory):
            // A write that cannot take SQLite's lock in time is a 503, as on PostgreSQL, never
            // one that lands after its client gave up.
            let database = try AppDatabase.open(
                directory: directory, busy: BusyPolicy(writeTimeLimit: WriteTimeLimit(configuration.limits.databaseTimeLimit)))
            let stores = try PlatformStores.sqlite(database, dataDirectory: directory, passwordHasher: PasswordHasher(), now: Date.init)
            try await run(stores: stores, configuration: configuration, onListening: onListening, onMetricsListening: onMetricsListening)
        case .postgres(let url):
            let postgres = try PostgresDatabase(
                url: url, logger: Logger(label: "edugo-server"), callTimeLimit: configuration.limits.databaseTimeLimit,
                slowCallThreshold: configuration.limits.slowDatabaseCall)
            // The pool runs beside the server and stops after it: requests in flight finish first.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await postgres.run() }
                defer { group.cancelAll() }
                let hasher = PasswordHasher()
                try await postgres.migrate(within: .seconds(15)) { try PlatformStores.postgresSeed(passwordHasher: hasher) }
                let stores = try await PlatformStores.postgres(postgres, passwordHasher: hasher, now: Date.init)
                try await run(
                    stores: stores, configuration: configuration, onListening: onListening, onMetricsListening: onMetricsListening)
            }
        }
    }

    /// The platform over an open SQLite database, as a service: tests run it in their own
    /// process and cancel it when done. The signing key is read from (or made in)
    /// `dataDirectory`.
    public static func application(
        database: AppDatabase, dataDirectory: URL, host: String = "127.0.0.1", port: Int = 0, accessTokenTTL: Int = 900,
        passwordHasher: PasswordHasher = PasswordHasher(), limits: ServerLimits = ServerLimits(),
        now: @escaping @Sendable () -> Date = Date.init, logger: Logger, onListening: @escaping @Sendable (Int) -> Void
    ) async throws -> some Service {
        let stores = try PlatformStores.sqlite(database, dataDirectory: dataDirectory, passwordHasher: passwordHasher, now: now)
        return try await application(
            stores: stores, host: host, port: port, accessTokenTTL: accessTokenTTL, limits: limits, now: now, logger: logger,
            onListening: Listening(api: onListening)
        )
    }
}
