import Foundation
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 26: the config file, from the command line and at the start of the app.
    @Suite("Journey: the config file")
    struct ConfigJourneyTests {
        @Test("a theme's colours are what the terminal shows: the selection in the file's #rrggbb, the nearest of 256")
        func themeColours() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e-config")
            defer { directory.remove() }
            let file = try directory.file(
                "config.toml",
                containing: """
                    [theme]
                    name = "light"
                    selection = { fg = "#000000", bg = "#ffd700" }
                    """)
            let session = try TmuxSession(arguments: ["--config", file.path], environment: ["TERM": "xterm-256color"])
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            try session.send("Down")
            try await session.waitFor("2/\(SeedCatalog.titles.count)")

            let styled = try await session.styledScreen()
            let selected = try #require(styled.first { $0.contains("Building a Desi") })
            // #ffd700 is 220 of xterm's 256; #000000 the cube's 16.
            #expect(selected.contains("48;5;220"), "\(selected.debugDescription)")
            #expect(selected.contains("38;5;16"), "\(selected.debugDescription)")
        }

        @Test("an edit while the app runs applies at once; a broken edit keeps the colours in force and the footer says why")
        func liveReload() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e-config")
            defer { directory.remove() }
            let file = directory.url.appendingPathComponent("config.toml")
            func write(_ text: String) throws {
                // As editors save: a new file renamed over the old one.
                let temporary = directory.url.appendingPathComponent(".config.toml.swp")
                try text.write(to: temporary, atomically: false, encoding: .utf8)
                guard rename(temporary.path, file.path) == 0 else { throw TmuxSession.TmuxError.failed("rename: \(errno)") }
            }
            try write("[theme]\nselection = { fg = \"#000000\", bg = \"#ffd700\" }\n")
            let session = try TmuxSession(arguments: ["--config", file.path], environment: ["TERM": "xterm-256color"])
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            try session.send("Down")
            try await session.waitFor("2/\(SeedCatalog.titles.count)")
            #expect(try await session.styledScreen().contains { $0.contains("Building a Desi") && $0.contains("48;5;220") })

            try write("[theme]\nselection = { fg = \"#000000\", bg = \"#87d7ff\" }\n")
            try await session.waitFor("Settings applied from config.toml")
            let styled = try await session.styledScreen()
            #expect(styled.contains { $0.contains("Building a Desi") && $0.contains("48;5;117") }, "\(styled)")

            try write("[theme]\nselection = { fg = \"#000000\", bg = \"#87d7ff\" }\nnmae = \"light\"\n")
            try await session.waitFor("the footer saying why") {
                $0.joined().contains("Settings not applied:") && $0.joined().contains("config.toml:3: theme.nmae")
            }
            #expect(try await session.styledScreen().contains { $0.contains("Building a Desi") && $0.contains("48;5;117") })
            // The mark stays in the header while the file is refused; ? gives the whole reason.
            try await session.waitFor("the header's mark") { $0.first?.hasSuffix("✗ settings") == true }
            try session.send("?")
            try await session.waitFor("Settings not applied: those before stay in force")
            try session.send("Escape")
            try write("[theme]\nselection = { fg = \"#000000\", bg = \"#87d7ff\" }\n")
            try await session.waitFor("the mark gone once the file is mended") {
                $0.first?.contains("✗ settings") == false && $0.joined().contains("Settings applied from config.toml")
            }
        }

        @Test("language and accessible set in the file while the app runs: Spanish from the next frame, the cursor on the selected row")
        func liveLanguage() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e-config")
            defer { directory.remove() }
            let file = try directory.file("config.toml", containing: "# nothing yet\n")
            // A locale that names English, as most systems' default does: the file's line wins.
            let session = try TmuxSession(arguments: ["--config", file.path], environment: ["LANG": "en_US.UTF-8"])
            try await session.signInIfAsked()
            try await session.waitFor("Catalog  64 courses")
            try "language = \"es\"\naccessible = true\n".write(to: file, atomically: true, encoding: .utf8)
            let spanish = try await session.waitFor("Catálogo  64 cursos")
            #expect(spanish[0].contains("2 Míos"), "the short tabs of 80 columns, in Spanish")
            try session.send("Down")
            try await session.waitForCursor("on the second course") { _, y, screen in screen[y].contains("Building a Design System") }
        }

        @Test("keys bound in the file drive the app, and the footer, ? and tui --help show them; the defaults they replace do nothing")
        func keyBindings() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e-config")
            defer { directory.remove() }
            let file = directory.url.appendingPathComponent("config.toml")
            // Colemak hands: n and e for down and up, Ctrl-F to search, F2 for a favourite.
            try """
            [theme]
            name = "light"

            [keys]
            "list.down" = ["n", "down"]
            "list.up" = ["e", "up"]
            "catalog.search" = "ctrl-f"
            "catalog.favourite" = "f2"
            """.write(to: file, atomically: true, encoding: .utf8)
            let session = try TmuxSession(arguments: ["--config", file.path])
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            let footer = try await session.waitFor("the footer with the keys in force") {
                $0.last?.contains("e/↑ n/↓ move") == true && $0.last?.contains("Ctrl-F search") == true
            }
            #expect(footer.last?.contains("F2 favourite") == true, "\(footer.last ?? "")")

            try session.send("n", "n", "e")
            try await session.waitFor("2/\(SeedCatalog.titles.count)")
            try session.send("F2")
            try await session.waitFor("Added Building a Design System to favourites")
            try session.send("f", "/")
            try session.send("C-f")
            try session.type("docker")
            try await session.waitFor("1 match")
            // In the field n and e are typed: the footer offers only the arrows to move.
            let field = try await session.waitFor("the field's footer") { $0.last?.contains("Esc") == true }
            #expect(field.last?.contains("n/↓") == false && field.last?.contains("e/↑") == false, "\(field.last ?? "")")
            // `f` and `/` did nothing: one favourite, and the search opened by Ctrl-F alone.
            try session.send("Escape", "3")
            try await session.waitFor("Favourites  1 course")

            try session.send("1", "?")
            let help = try await session.waitFor("the help with the keys in force") { lines in
                lines.contains { $0.contains("Ctrl-F ") && $0.contains("search title") }
            }
            #expect(help.contains { $0.contains("e/↑ n/↓ ") && $0.contains("move (also k j)") })

            let manual = try await BuiltProduct.run("tui", ["--help"], environment: ["EDUGO_CONFIG": file.path])
            #expect(manual.output.contains("Ctrl-F") && manual.output.contains("F2"), "\(manual.output)")
            // --config is read for the help too, before the options are parsed.
            let named = try await BuiltProduct.run("tui", ["--help", "--config", file.path])
            #expect(named.output.contains("Ctrl-F") && named.output.contains("F2"), "\(named.output)")
        }

        @Test("vim keys, a Colemak search key and a light theme from one file: h l n N Ctrl-D g drive the app; s and S sort")
        func vimPreset() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e-config")
            defer { directory.remove() }
            let file = try directory.file(
                "config.toml",
                containing: """
                    [theme]
                    name = "light"

                    [keys]
                    preset = "vim"
                    "catalog.search" = "ctrl-f"
                    """)
            let total = SeedCatalog.titles.count
            let session = try TmuxSession(arguments: ["--config", file.path])
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            let footer = try await session.waitFor("the footer with vim's keys") { $0.last?.contains("Enter/l/→ open") == true }
            #expect(footer.last?.contains("Ctrl-F search") == true, "\(footer.last ?? "")")

            // n and N: the next and previous row; l opens, h comes back.
            try session.send("n", "n", "N")
            try await session.waitFor("2/\(total)")
            try session.send("N", "l")
            try await session.waitFor("Sprints, backlogs")
            try session.send("h")
            try await session.waitFor("↕ title A–Z")
            // Ctrl-D: half a page down, then g (so gg) to the top again.
            try session.send("C-d")
            let half = try await session.waitFor("half a page down") { lines in
                lines.contains { line in
                    guard let range = line.range(of: #"\b([0-9]+)/"# + String(total), options: .regularExpression) else { return false }
                    let place = Int(line[range].split(separator: "/")[0]) ?? 0
                    return (5...15).contains(place)
                }
            }
            #expect(!half.contains { $0.contains(" 1/\(total)") })
            try session.send("g", "g")
            try await session.waitFor(" 1/\(total)")

            // s: the next order, named in the title line; S reverses it.
            // The selected course stays selected in the new order; g g goes to its top.
            try session.send("s")
            try await session.waitFor("↕ price by currency, lowest first")
            try session.send("g", "g")
            let cheapest = try await session.waitFor("the cheapest first") { $0.contains { $0.contains(" 1/\(total)") } }
            #expect(cheapest.contains { $0.contains("Free") })
            try session.send("S")
            try await session.waitFor("↕ price by currency, highest first")

            try session.send("?")
            // The footer says `Enter/l/→` too: the help is there when its line is.
            let help = try await session.waitFor("the help") { $0.contains { $0.contains("Enter/l/→") && $0.contains("open the course") } }
            #expect(help.contains { $0.contains("Ctrl-U Ctrl-D half a page") }, "\(help.joined(separator: "\n"))")
            // The keys that work everywhere are further down.
            try session.send("Down", times: 20)
            try await session.waitFor("Esc/h/←")
        }

        @Test("a bad file stops the app before it starts: exit 1, naming the file, the line and the key")
        func badFileAtStart() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e-config")
            defer { directory.remove() }
            let file = try directory.file("config.toml", containing: "[theme]\nnmae = \"light\"\n")
            let session = try TmuxSession(environment: ["EDUGO_CONFIG": file.path])
            #expect(try await session.waitForExit() == 1)
            // The message wraps at the pane's width (its path is long): read as one text.
            let text = try await session.screen().joined()
            #expect(text.contains("config.toml:2: theme.nmae:"), "\(text)")
            #expect(text.contains("is not a setting here"), "\(text)")
        }

        @Test("--profile NAME uses the server of [profiles.NAME]; a profile the file lacks is exit 1, naming those it has")
        func profile() async throws {
            let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
            defer {
                server.signal(SIGKILL)
                server.directory.remove()
            }
            let directory = TemporaryDirectory(prefix: "edugo-e2e-config")
            defer { directory.remove() }
            let file = directory.url.appendingPathComponent("config.toml")
            try "[profiles.work]\nserver = \"\(server.baseURL.absoluteString)\"\nemail = \"demo@edugo.dev\"\n".write(
                to: file, atomically: true, encoding: .utf8)

            let session = try TmuxSession(arguments: ["--config", file.path, "--profile", "work"], width: 150)
            // The profile's email is filled in, and the password has the keys.
            try await session.waitFor("the profile's email in the form") { lines in
                lines.contains { $0.contains("Email") && $0.contains("demo@edugo.dev") }
            }
            try session.type("edugo-demo")
            try session.send("Enter")
            try await session.waitFor("Catalog  64 courses")
            // The header's status names the server, connected.
            let host = "\(server.baseURL.host ?? ""):\(server.baseURL.port ?? 0) ●"
            try await session.waitFor("the server in the status") { $0.first?.contains(host + " · 2 enrolled") == true }
            let (api, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
            #expect(try await api.send("PUT", "/v1/me/favourites/ux-research").status == 204)
            try session.send("3")
            try await session.waitFor("the server's favourite, so the server is the store") {
                $0.contains { $0.contains("UX Research Methods") }
            }

            let unknown = try TmuxSession(arguments: ["--config", file.path, "--profile", "home"])
            #expect(try await unknown.waitForExit() == 1)
            let text = try await unknown.screen().joined()
            #expect(text.contains("no [profiles.home] in the config file; it has work"), "\(text)")
        }

        @Test("tui config --check: 0 for a good file, 1 naming the line and key of a bad one; --print-defaults writes a valid file")
        func check() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e-config")
            defer { directory.remove() }
            let defaults = try await runTUI(["config", "--print-defaults"])
            #expect(defaults.status == 0)
            #expect(defaults.output.contains("[theme]"))
            let good = directory.url.appendingPathComponent("good.toml")
            try defaults.output.write(to: good, atomically: true, encoding: .utf8)
            let checked = try await runTUI(["config", "--check", good.path])
            #expect(checked.status == 0)
            #expect(checked.output.contains("good.toml: OK"))

            let bad = directory.url.appendingPathComponent("bad.toml")
            try "[theme]\nname = \"light\"\naccent = \"purpel\"\n".write(to: bad, atomically: true, encoding: .utf8)
            let refused = try await runTUI(["config", "--check", bad.path])
            #expect(refused.status == 1)
            #expect(refused.errors.contains("bad.toml:3: theme.accent: \"purpel\" is not a colour"), "\(refused.errors)")

            let missing = try await runTUI(["--config", directory.url.appendingPathComponent("none.toml").path, "config", "--check"])
            #expect(missing.status == 1)
            #expect(missing.errors.contains("none.toml: no such file"), "\(missing.errors)")
        }

        @Test("tui config --check of a 1 GiB file says it is too large without reading it: it does so within 256 MiB of memory")
        func hugeFile() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e-config")
            defer { directory.remove() }
            let big = directory.url.appendingPathComponent("big.toml").path
            #expect(FileManager.default.createFile(atPath: big, contents: nil))
            #expect(truncate(big, 1 << 30) == 0)

            // prlimit (util-linux) bounds the app's own memory: a child's peak cannot be read
            // apart from this big test process, whose memory a spawned child inherits at exec.
            // The file read whole first (1.03-1.08 GB) cannot be done in it: "cannot be read".
            let tui = try BuiltProduct.path("tui")
            let (status, text) = try await onOwnThread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
                process.arguments = ["--data=\(256 << 20)", tui, "config", "--check", big]
                let errors = Pipe()
                process.standardError = errors
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return (process.terminationStatus, text)
            }

            #expect(status == 1)
            #expect(text.contains("big.toml: is larger than 1 MiB"), "\(text)")
        }
    }
}
