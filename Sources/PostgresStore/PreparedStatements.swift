import Logging
import PostgresNIO

/// A query PostgreSQL parses and plans once per connection, not on every call: PostgresNIO
/// prepares a `PostgresPreparedStatement` on a connection the first time it runs there and
/// binds it afterwards. Its type gives the name and text, and here one type serves every
/// text: both are set for the call (a task-local, read when the call starts), the name made
/// from the text, so each distinct text is its own statement on each connection.
///
/// Only for texts whose values never bind a null where another call binds a value: a
/// statement's parameter types are fixed by its first call (a null leaves PostgreSQL to infer
/// one, which a later value of another width would not fit). So: fixed shapes, no optional
/// values; anything else stays `query`.
struct NamedStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow

    @TaskLocal static var text = (name: "", sql: "")
    static var name: String { text.name }
    static var sql: String { text.sql }

    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }

    /// `edugo_` and the text's 64-bit FNV-1a hash: the same on every run and every server.
    static func name(for sql: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return "edugo_" + String(hash, radix: 16)
    }
}

extension PostgresConnection {
    /// `query`, as a statement prepared on this connection (see `NamedStatement`).
    @discardableResult
    ///
    /// PostgresNIO keeps a failed preparation's error for the connection's life: every later
    /// call of that statement there fails the same way. Preparing takes a lock on each table
    /// it reads, so a table locked past the statement timeout (an import's renumbering, a
    /// migration) would leave the statement failing on that connection for good. So a
    /// failure the server reports closes the connection, and the pool opens a new one.
    func prepared(_ query: PostgresQuery, logger: Logger) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow> {
        do {
            return try await NamedStatement.$text.withValue((NamedStatement.name(for: query.sql), query.sql)) {
                try await execute(NamedStatement(bindings: query.binds), logger: logger)
            }
        } catch let error as PSQLError where error.code == .server {
            try? await close()
            throw error
        }
    }
}

extension Array {
    /// Every element of an async sequence, in order.
    init<Source: AsyncSequence>(collecting source: Source) async throws where Source.Element == Element {
        self = []
        for try await element in source { append(element) }
    }
}
