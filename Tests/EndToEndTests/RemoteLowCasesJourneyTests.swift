import Foundation
import Hummingbird
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 22's LOW cases on the client: nothing the command line echoes drives the
    /// terminal, and an empty remote catalog says something true of remote mode.
    @Suite("Journey: remote mode, the low cases")
    struct RemoteLowCasesJourneyTests {
        /// A server address that would clear the screen, retitle the window, ring the bell and
        /// reverse the text that follows, were it echoed raw.
        static let hostileAddress = "\u{1B}]2;pwned\u{07}\u{1B}[2J\u{1B}[31m\u{202E}http://x\u{9B}1m y"

        /// What must never reach a terminal: ESC, BEL, C1 controls (CSI), bidi controls.
        static func isRaw(_ text: String) -> Bool {
            text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || (0x80..<0xA0).contains($0.value) || $0 == "\u{202E}" }
        }

        enum EchoCase: String, CaseIterable, CustomTestStringConvertible {
            case serverOption = "--server with escape sequences"
            case unknownOption = "an unknown option with escape sequences"
            case importFile = "import-courses of a file named with escape sequences"

            var testDescription: String { rawValue }

            var arguments: [String] {
                switch self {
                case .serverOption: ["--server", RemoteLowCasesJourneyTests.hostileAddress]
                case .unknownOption: ["--x\u{1B}[2J\u{1B}]2;pwned\u{07}"]
                case .importFile: ["import-courses", "/nowhere/\u{1B}[2J\u{1B}]2;pwned\u{07}.json", "--data-dir", "/nowhere"]
                }
            }

            /// What the sanitised message still says.
            var says: String {
                switch self {
                case .serverOption: "--server needs an http:// or https:// address"
                case .unknownOption: "Unknown option"
                case .importFile: "/nowhere/"
                }
            }
        }

        @Test(
            "every text the command line echoes is sanitised (stderr is not a terminal here, which changes nothing)",
            arguments: EchoCase.allCases)
        func echoed(_ echo: EchoCase) async throws {
            let result = try await runTUI(echo.arguments)

            #expect(result.status != 0)
            #expect(result.errors.contains(echo.says), "\(result.errors)")
            #expect(!Self.isRaw(result.errors), "raw: \(result.errors.debugDescription)")
            #expect(!Self.isRaw(result.output), "raw: \(result.output.debugDescription)")
        }

        @Test("EDUGO_SERVER with escape sequences is echoed sanitised: the terminal keeps its title and its screen")
        func environmentServer() async throws {
            let session = try TmuxSession(environment: ["EDUGO_SERVER": Self.hostileAddress])

            let screen = try await session.waitFor("--server needs an http")
            #expect(try await session.waitForExit() == 2)
            #expect(try session.paneTitle() != "pwned", "no escape sequence reached the terminal")
            #expect(!screen.contains { $0.contains("[2J") || $0.contains("]2;") }, "\(screen)")
        }

        @Test("an empty remote catalog says the server has none yet, not to run the local import")
        func emptyRemoteCatalog() async throws {
            let router = Router()
            RouterServer.addSignIn(to: router)
            router.get("/v1/courses") { _, _ in
                RouterServer.json(#"{"courses": [], "next": null, "previous": null, "total": 0, "total_is_lower_bound": false}"#)
            }
            let server = try await RouterServer.start(router)
            let url = server.url
            try await server.stopping {
                let session = try TmuxSession(arguments: ["--server", url.absoluteString])
                try await session.signInIfAsked()

                let screen = try await session.waitFor("has no courses yet")
                #expect(screen.contains { $0.contains("127.0.0.1:\(url.port ?? 0) has no courses yet") })
                #expect(!screen.contains { $0.contains("tui import-courses") }, "the local import does nothing for a server")
                try session.send("q")
                #expect(try await session.waitForExit() == 0)
            }
        }
    }
}
