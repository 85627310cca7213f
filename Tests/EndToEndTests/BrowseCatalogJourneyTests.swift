import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// SPEC's first journey with the real binary in tmux at 80×24 and a fresh data directory.
    @Suite("Journey: browse the catalog")
    struct BrowseCatalogJourneyTests {
        @Test("open the catalog, open the third course, go back to the same row, quit with q")
        func browseOpenBackQuit() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()

            let catalog = try await session.waitFor("Agile and Scrum")
            #expect(catalog[0].contains("1 Catalog"))
            #expect(catalog[0].contains("Demo Learner"))
            #expect(catalog.contains { $0.contains("64 courses") && $0.hasSuffix("1/64") })

            try session.send("Down", "Down", "Enter")
            let detail = try await session.waitFor("Fast, reliable pipelines")
            #expect(detail[1].contains("CI/CD Pipelines That Stay Green"))
            #expect(detail.contains { $0.contains("Prerequisite  Git Beyond the Basics") })

            try session.send("Escape")
            let back = try await session.waitFor("3/64")
            #expect(back.contains { $0.contains("CI/CD Pipelines") && $0.contains("locked") })

            try session.send("q")
            #expect(try await session.waitForExit() == 0)
            #expect(try await session.terminalRestored())
        }

        @Test("Ctrl-C quits at once from the detail screen and restores the terminal")
        func controlC() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            try session.send("Enter")
            try await session.waitFor("Sprints, backlogs")

            try session.send("C-c")

            #expect(try await session.waitForExit() == 0)
            #expect(try await session.terminalRestored())
        }

        @Test("--offline shows the error and Press r to retry")
        func offline() async throws {
            let session = try TmuxSession(arguments: ["--offline"])
            try await session.signInIfAsked()

            let screen = try await session.waitFor("Press r to retry")

            #expect(screen.contains { $0.contains("Cannot reach the EduGo catalog") })
            try session.send("r")
            try await session.waitFor("Press r to retry")
            try session.send("q")
            #expect(try await session.waitForExit() == 0)
        }

        @Test("--latency 1500 shows Loading… before the list")
        func latency() async throws {
            let session = try TmuxSession(arguments: ["--latency", "1500"])
            // What the app wrote, read after the fact: a screen read during the 1.5 s could
            // come too late on a loaded machine.
            try session.recordOutput()
            try await session.signInIfAsked()

            let output = try await session.waitForOutput("the list") { $0.range(of: Data("Agile and Scrum".utf8)) != nil }
            let loading = try #require(output.range(of: Data("Loading…".utf8)), "Loading… was written")
            let list = try #require(output.range(of: Data("Agile and Scrum".utf8)))
            #expect(loading.upperBound <= list.lowerBound, "Loading… came before the list")
            // The loading screen lasted: its spinner turned (a frame every 100 ms), which a
            // read without the latency, over in a millisecond, never shows.
            let between = String(decoding: output[loading.upperBound..<list.lowerBound], as: UTF8.self)
            let spinnerFrames = Set(between.unicodeScalars.filter { (0x2800...0x28FF).contains($0.value) })
            #expect(spinnerFrames.count >= 2, "the spinner showed \(spinnerFrames.count) frame(s)")
            try await session.waitFor("Agile and Scrum")
        }

        @Test("resizing to below 60×16 shows the notice, and growing brings the screen back")
        func resize() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")

            try session.resize(width: 40, height: 10)
            try await session.waitFor("Terminal too small")
            try session.resize(width: 80, height: 24)

            try await session.waitFor("Agile and Scrum")
        }

        @Test("SIGTERM and SIGHUP restore the terminal and end the app", arguments: [SIGTERM, SIGHUP])
        func signals(signal: Int32) async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            let pid = try #require(try session.appPID())

            kill(pid, signal)

            #expect(try await session.waitForExit() == 128 + signal)
            #expect(try await session.terminalRestored())
        }

        @Test("a data directory holding a file that is not a database: exit 1 with the path, file untouched")
        func notADatabase() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let path = directory.url.appendingPathComponent("edugo.sqlite").path
            let notes = Data("my notes\n".utf8)
            _ = FileManager.default.createFile(atPath: path, contents: notes)

            let session = try TmuxSession(dataDirectory: directory)

            #expect(try await session.waitForExit() == 1)
            let screen = try await session.screen().joined(separator: " ")
            #expect(screen.contains("is not an SQLite database"))
            #expect(FileManager.default.contents(atPath: path) == notes)
        }
    }

    @Suite("Command line")
    struct CommandLineTests {
        @Test("stdin or stdout not a terminal: exit 2 with SPEC's text")
        func notATerminal() async throws {
            let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-never-\(UUID())").path

            let result = try await runTUI(["--data-dir", dataDirectory])

            #expect(result.status == 2)
            #expect(result.errors == "tui needs an interactive terminal\n")
            #expect(!FileManager.default.fileExists(atPath: dataDirectory))
        }

        @Test("--version prints the version")
        func version() async throws {
            let result = try await runTUI(["--version"])

            #expect(result.status == 0)
            #expect(result.output == "0.1.0\n")
        }

        // The keys manual is worked out only when the command line asks for a help: each way
        // of asking has it.
        @Test(
            "--help lists the keys, and so do -h, -help, help and a help beside another flag",
            arguments: [["--help"], ["-h"], ["-help"], ["help"], ["--offline", "-h"]])
        func help(arguments: [String]) async throws {
            let result = try await runTUI(arguments)

            #expect(result.status == 0)
            for needle in [
                "--data-dir", "--latency", "--offline", "--log-level", "Ctrl-C", "Enter", "PgUp", "search", "favourite", "unenroll",
                "log out", "demo@edugo.dev",
            ] {
                #expect(result.output.contains(needle), "help lacks \(needle)")
            }
        }

        @Test("--help in Spanish: ArgumentParser's headings, its own options and the defaults too, and its errors")
        func spanishHelp() async throws {
            let help = try await runTUI(["--help", "--language", "es"])
            let config = try await runTUI(["config", "--help", "--language", "es"])
            let unknown = try await runTUI(["--bogus", "--language", "es"])

            #expect(help.status == 0)
            for needle in [
                "DESCRIPCIÓN:", "USO: tui [--config <ruta>]", "OPCIONES:", "SUBCOMANDOS:", "Muestra la versión.", "Muestra esta ayuda.",
                "(por defecto: 0)", "(por defecto: info)", "Consulta 'tui help <subcomando>'", "--today <AAAA-MM-DD>",
            ] {
                #expect(help.output.contains(needle), "help lacks \(needle)")
            }
            for english in ["OVERVIEW", "USAGE", "OPTIONS", "SUBCOMMANDS", "Show ", "default:", "values:", "<path>", "See '"] {
                #expect(!help.output.contains(english), "help says \(english)")
            }
            #expect(config.output.contains("ARGUMENTOS:\n  <ruta>"), "\(config.output)")
            #expect(unknown.status != 0)
            #expect(unknown.errors.contains("Error: Opción desconocida '--bogus'"), "\(unknown.errors)")
            #expect(unknown.errors.contains("Consulta 'tui --help' para más información."), "\(unknown.errors)")
            // Within 80 columns, the usage line aside (ArgumentParser's, in either language).
            let importHelp = try await runTUI(["import-courses", "--help", "--language", "es"])
            let badLevel = try await runTUI(["--log-level", "x", "--language", "es"])
            let badLevelInEnglish = try await runTUI(["--log-level", "x"])
            for text in [help.output, config.output, importHelp.output, badLevel.errors, badLevelInEnglish.errors, unknown.errors] {
                let long = text.split(separator: "\n").filter {
                    $0.count > 80 && !$0.hasPrefix("USO:") && !$0.hasPrefix("Uso:") && !$0.hasPrefix("Usage:")
                }
                #expect(long.isEmpty, "\(long)")
            }
        }

        @Test("import-courses adds and updates with counts; a bad file exits 1 naming entry and field, changing nothing")
        func importCourses() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let good = directory.url.appendingPathComponent("good.json").path
            let bad = directory.url.appendingPathComponent("bad.json").path
            let entry =
                #"{"id": "ID", "title": "Imported ID", "instructor": "I", "level": "beginner", "duration_minutes": 5, "price": 1, "currency": "EUR", "description": "D"}"#
            let update = entry.replacingOccurrences(of: "ID", with: "swift-fundamentals")
            _ = FileManager.default.createFile(
                atPath: good, contents: Data("[\(entry.replacingOccurrences(of: "ID", with: "new")), \(update)]".utf8))
            _ = FileManager.default.createFile(
                atPath: bad,
                contents: Data(
                    "[\(entry.replacingOccurrences(of: "ID", with: "newer")), \(entry.replacingOccurrences(of: "beginner", with: "guru"))]"
                        .utf8))
            let database = directory.url.appendingPathComponent("data")

            let added = try await runTUI(["import-courses", good, "--data-dir", database.path])
            let refused = try await runTUI(["--data-dir", database.path, "import-courses", bad])
            // The refused file's valid first entry was not stored: it is new now.
            _ = FileManager.default.createFile(
                atPath: good, contents: Data("[\(entry.replacingOccurrences(of: "ID", with: "newer"))]".utf8))
            let again = try await runTUI(["import-courses", good, "--data-dir", database.path])

            #expect(added.status == 0)
            #expect(added.output.hasSuffix(": 1 added, 1 updated\n"), "\(added)")
            #expect(refused.status == 1)
            #expect(
                refused.errors.contains(
                    #"nothing was changed: entry 1 (id "ID"): field "level" must be one of beginner, intermediate, advanced"#), "\(refused)"
            )
            #expect(again.output.hasSuffix(": 1 added, 0 updated\n"), "\(again)")
            // In Spanish each count agrees with its own number.
            let spanish = try await runTUI(["import-courses", good, "--data-dir", database.path, "--language", "es"])
            #expect(spanish.output.hasSuffix(": 0 añadidos, 1 actualizado\n"), "\(spanish)")
        }

    }
}
