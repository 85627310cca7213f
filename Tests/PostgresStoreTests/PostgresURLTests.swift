import Logging
import PostgresNIO
import Testing

@testable import PostgresStore

@Suite("PostgreSQL URLs")
struct PostgresURLTests {
    @Test("postgres:// and postgresql:// with user, password, host, port and database; sslmode chooses TLS")
    func valid() throws {
        let plain = try PostgresDatabase.configuration("postgres://edugo:s%40cret@db.example.com:6543/platform")
        let defaults = try PostgresDatabase.configuration("postgresql://edugo@localhost")

        #expect(plain.host == "db.example.com" && plain.port == 6543)
        #expect(plain.username == "edugo" && plain.password == "s@cret" && plain.database == "platform")
        #expect(defaults.port == 5432 && defaults.password == nil && defaults.database == nil)
        #expect(throws: Never.self) { try PostgresDatabase.configuration("postgres://edugo@localhost/db?sslmode=require") }
    }

    @Test(
        "anything else is refused, and the refusal never shows the password",
        arguments: [
            "mysql://edugo:secret@localhost/db", "postgres://:secret@localhost/db", "postgres://edugo:secret@/db",
            "postgres://edugo:secret@localhost/db?sslmode=sometimes", "not a url",
        ])
    func invalid(url: String) {
        #expect {
            _ = try PostgresDatabase(url: url, logger: Logger(label: "test"))
        } throws: { error in
            !String(describing: error).contains("secret")
        }
    }
}

@Suite("PostgreSQL that does not answer")
struct PostgresUnreachableTests {
    @Test("migrating a database nobody serves gives up after its limit, naming where it looked")
    func givesUp() async throws {
        // Port 9 (discard), which nothing here serves.
        let database = try PostgresDatabase(url: "postgres://edugo@127.0.0.1:9/edugo", logger: Logger(label: "test"))
        let pool = Task { await database.run() }
        defer { pool.cancel() }

        await #expect {
            try await database.migrate(within: .milliseconds(300)) {
                PostgresSeed(courses: [], demoName: "Demo", demoEmail: "demo@example.com", demoPasswordHash: "x")
            }
        } throws: { error in
            (error as? PostgresUnreachable)?.description == "PostgreSQL at 127.0.0.1:9/edugo did not answer within 0 s"
        }
    }
}
