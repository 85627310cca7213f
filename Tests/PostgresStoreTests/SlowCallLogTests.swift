import Foundation
import Logging
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import PostgresStore

/// A server's PostgreSQL calls slower than a threshold are logged with where their time went:
/// waiting to start, for a connection, on the connection, and handing the answer back.
@Suite(
    "PostgreSQL: the log of slow calls", .serialized,
    .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct SlowCallLogTests {
    @Test("a call slower than the threshold is one warning with its four phases, the time on the connection holding the statement's")
    func slowCallLogged() async throws {
        let (database, log, pool) = try Self.makeSUT(slowCallThreshold: .milliseconds(100))
        defer { pool.cancel() }

        try await database.execute("SELECT pg_sleep(0.2)")

        let lines = log.lines.filter { $0.contains("slow PostgreSQL call") }
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasPrefix("warning"))
        for phase in ["queued_ms", "lease_ms", "connection_ms", "return_ms", "total_ms"] {
            #expect(line.contains("\"\(phase)\": "), "\(phase) missing from \(line)")
        }
        #expect(line.contains("\"operation\": reading"))
        let onConnection = try #require(Self.value("connection_ms", in: line))
        let total = try #require(Self.value("total_ms", in: line))
        #expect(onConnection >= 200 && total >= onConnection, "\(line)")
    }

    @Test("no threshold, no log; a threshold of zero logs every call")
    func threshold() async throws {
        let (quiet, quietLog, quietPool) = try Self.makeSUT(slowCallThreshold: nil)
        defer { quietPool.cancel() }
        try await quiet.ping()
        #expect(!quietLog.lines.contains { $0.contains("slow PostgreSQL call") })

        let (every, everyLog, everyPool) = try Self.makeSUT(slowCallThreshold: .zero)
        defer { everyPool.cancel() }
        try await every.ping()
        try await every.ping()
        #expect(everyLog.lines.filter { $0.contains("slow PostgreSQL call") }.count == 2)
    }

    private static func makeSUT(slowCallThreshold: Duration?) throws -> (PostgresDatabase, LogRecorder, Task<Void, Never>) {
        let log = LogRecorder()
        let url = try #require(PostgresTestCluster.adminURL)
        // Only calls with a time limit are timed; the limit itself is not what these tests hold,
        // so it is one no call here meets: with 30 s, a call waited out a stall of the whole
        // test process (every suite at its start held up for ~37 s on a loaded 2-core machine).
        let database = try PostgresDatabase(
            url: url, logger: log.logger, callTimeLimit: .seconds(3_600), slowCallThreshold: slowCallThreshold)
        let pool = Task { await database.run() }
        return (database, log, pool)
    }

    /// A metadata value, as `LogRecorder` writes metadata (`"key": value`).
    private static func value(_ key: String, in line: String) -> Double? {
        guard let range = line.range(of: "\"\(key)\": ") else { return nil }
        return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }
}
