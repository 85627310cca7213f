import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// `edugo-server`'s limits on its command line: a value out of range is refused before
/// anything starts (usage error, exit 64, the range named), and the values at each end are
/// taken.
@Suite("edugo-server: the command line's limits")
struct ServerFlagsTests {
    struct Bound: Sendable, CustomTestStringConvertible {
        let flag: String
        let below: String?
        let above: String
        let says: String

        var testDescription: String { flag }
    }

    static let bounds = [
        Bound(flag: "--port", below: "-1", above: "65536", says: "--port must be 0 to 65535"),
        Bound(flag: "--access-token-ttl", below: "0", above: "86401", says: "--access-token-ttl must be 1 to 86400 seconds"),
        Bound(flag: "--rate-limit", below: "-1", above: "1000001", says: "--rate-limit must be 0 to 1000000"),
        Bound(flag: "--connection-timeout", below: "0", above: "61", says: "--connection-timeout must be 1 to 60 seconds"),
        Bound(flag: "--hash-wait", below: "0", above: "601", says: "--hash-wait must be 1 to 600 seconds"),
        Bound(flag: "--max-connections", below: "15", above: "1000001", says: "--max-connections must be 16 to 1000000"),
        Bound(flag: "--streams-per-learner", below: "0", above: "1001", says: "--streams-per-learner must be 1 to 1000"),
        Bound(flag: "--page-cache-megabytes", below: "-1", above: "65537", says: "--page-cache-megabytes must be 0 to 65536"),
    ]

    @Test("a value past either end of its range is refused, with the range, before the server starts", arguments: bounds)
    func refused(_ bound: Bound) async throws {
        let directory = TemporaryDirectory(prefix: "edugo-server-flags")
        defer { directory.remove() }
        // A data directory the server cannot make: a value wrongly taken ends the run at once
        // (exit 1, the directory named) instead of a server listening until the test is killed.
        let inTheWay = directory.url.appendingPathComponent("in-the-way")
        try Data().write(to: inTheWay)
        for value in [bound.below, bound.above].compactMap(\.self) {
            // `--flag=value`: a negative number after a space would read as another option.
            let result = try await BuiltProduct.run("edugo-server", ["\(bound.flag)=\(value)", "--data-dir", inTheWay.path])
            #expect(result.status == 64, "\(bound.flag) \(value): \(result.errors)")
            #expect(result.errors.contains("Error: \(bound.says)"), "\(bound.flag) \(value): \(result.errors)")
            #expect(result.output.isEmpty, "nothing listens: \(result.output)")
        }
    }

    @Test("--metrics-address must be an address with a port")
    func metricsAddress() async throws {
        for value in ["localhost", "127.0.0.1:", "[::1]", ":99999"] {
            let result = try await BuiltProduct.run("edugo-server", ["--metrics-address", value, "--data-dir", "/dev/null"])
            #expect(result.status == 64, "\(value): \(result.errors)")
            #expect(
                result.errors.contains("Error: --metrics-address must be HOST:PORT, [IPv6]:PORT or :PORT"), "\(value): \(result.errors)")
        }
    }

    @Test("the hash wait's ends are taken: a server with 1 s, and one with 600 s, answers", arguments: ["1", "600"])
    func hashWaitEnds(_ seconds: String) async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory(), arguments: ["--hash-wait", seconds])
        #expect(try await HTTPClient(baseURL: server.baseURL).get("/health").status == 200)
    }

    @Test("--help names the hash wait and its unit")
    func help() async throws {
        let result = try await BuiltProduct.run("edugo-server", ["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("--hash-wait <seconds>"), "\(result.output)")
        #expect(result.output.contains("password-hashing slot"), "\(result.output)")
    }
}
