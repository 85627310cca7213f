import Logging
import PostgresNIO
@testable import PostgresStore
import Testing

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

    @Test("anything else is refused, and the refusal never shows the password", arguments: [
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
