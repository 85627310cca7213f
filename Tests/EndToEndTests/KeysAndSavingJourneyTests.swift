import Foundation
import GRDB
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 12: keys act in order on what the screen shows; writes show at once; a slow store
    /// never leaves a screen stale or silent.
    @Suite("Journey: keys, waiting and saving")
    struct KeysAndSavingJourneyTests {
        @Test("/docker Enter f typed in one burst favourites Docker Essentials, whatever row was selected")
        func searchBurst() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")

            try session.type("/docker")
            try session.send("Enter", "f")

            try await session.waitFor("Added Docker Essentials to favourites")
        }

        @Test("2 u typed in one burst asks about the first course of My courses, once it is there")
        func tabBurst() async throws {
            let session = try TmuxSession(arguments: ["--latency", "300"])
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            try session.send("Enter")
            try await session.waitFor("by ")
            try session.send("e", "y")
            try await session.waitFor("Enrolled in Agile and Scrum in Real Teams")

            try session.send("2", "u")

            try await session.waitFor("Unenroll from Agile and Scrum in Real Teams? (y/n)")
        }

        @Test("with a slow store, f shows ★ at once, before the store answers, then says it is saved")
        func favouriteShowsAtOnce() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")

            // The store is slow for as long as the test holds the database's write lock (as
            // another program would): the app's write waits it out, however loaded the machine.
            try await Self.holdingTheWriteLock(of: session) {
                try session.send("f")
                try await session.waitFor("★ on the row while the store is still working") { lines in
                    lines.contains { $0.hasPrefix(" ★  Agile and Scrum") } && !lines.contains { $0.contains("Added Agile") }
                }
            }
            try await session.waitFor("Added Agile and Scrum in Real Teams to favourites")
        }

        /// Runs `body` while this process holds the write lock of the session's database, then
        /// lets it go (whatever `body` did): the app's writes wait meanwhile, its reads go on.
        static func holdingTheWriteLock(of session: TmuxSession, _ body: () async throws -> Void) async throws {
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true  // the lock outlives one access
            configuration.busyMode = .timeout(20)  // the app may be writing as the lock is taken
            let path = session.dataDirectory.url.appendingPathComponent("edugo.sqlite").path
            let database = try DatabaseQueue(path: path, configuration: configuration)
            try database.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
            do {
                try await body()
            } catch {
                try database.inDatabase { db in try db.execute(sql: "ROLLBACK") }
                throw error
            }
            try database.inDatabase { db in try db.execute(sql: "ROLLBACK") }
        }

        @Test("with a slow store, r keeps the list on screen with a spinner in its title line")
        func reloadKeepsTheList() async throws {
            // The reload is held at a stand-in server's gate, for as long as the test looks.
            let reads = Gate(open: true)
            let server = try await EndToEnd.startStandInCatalog(count: 30, gate: reads)
            try await server.stopping {
                do {
                    let session = try EndToEnd.standInSession(server)
                    try await session.signInIfAsked()
                    try await session.waitFor("the catalog loaded") {
                        $0.contains { $0.contains("Course 1 of the stand-in") }
                            && !$0.contains { $0.contains("⠋") || $0.contains("Loading") }
                    }
                    await reads.close()
                    let before = await reads.arrivals

                    try session.send("r")

                    try await EndToEnd.waitForArrivals(before + 1, at: reads)
                    let reloading = try await session.waitFor("the spinner beside the title") { lines in
                        lines.contains {
                            $0.hasPrefix(" Catalog  30 courses ") && $0.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }
                        }
                    }
                    #expect(reloading.contains { $0.contains("Course 1 of the stand-in") })
                    #expect(!reloading.contains { $0.contains("Loading…") })
                    await reads.open()
                    try await session.waitFor("the reload ended") { lines in
                        lines.contains {
                            $0.hasPrefix(" Catalog  30 courses ") && !$0.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }
                        }
                    }
                } catch {
                    await reads.open()
                    throw error
                }
            }
        }

        @Test("with a slow store, a new name shows at once, and after Name updated the old one never comes back")
        func renameNeverShowsTheOldName() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            try session.send("4")
            try await session.waitFor("Member since")

            try await Self.holdingTheWriteLock(of: session) {
                try session.send("e", "C-u")
                try session.type("Ana Lima")
                try session.send("Enter")
                try await session.waitFor("the new name while it is saved") { lines in
                    lines.contains { $0.contains("Name              Ana Lima") } && lines[0].hasSuffix("Ana Lima")
                        && !lines.contains { $0.contains("Name updated") }
                }
            }
            try await session.waitFor("Name updated")
            // Read the screen a few times after the confirmation: the old name stays gone.
            for _ in 0..<10 {
                let lines = try await session.screen()
                #expect(!lines.contains { $0.contains("Demo Learner") }, "\(lines.joined(separator: "\n"))")
                try await Task.sleep(for: .milliseconds(100))
            }
        }

        @Test("--offline: the catalog says it cannot be reached, and a learner can still log out")
        func offlineLogOut() async throws {
            let session = try TmuxSession(arguments: ["--offline"])
            try await session.signInIfAsked()
            try await session.waitFor("Cannot reach the EduGo catalog")

            try session.send("4", "l")
            try await session.waitFor("Log out? (y/n)")
            try session.send("y")

            try await session.waitFor("Sign in to EduGo")
        }
    }

    /// Issue 11: nothing crashes, nothing is lost, nobody acts as someone else.
    @Suite("Journey: hardening")
    struct HardeningJourneyTests {
        @Test("two instances on one data directory, signed in as different learners, each act as their own")
        func twoLearners() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let ana = try TmuxSession(dataDirectory: directory)
            try await ana.signInIfAsked()
            try await ana.waitFor("Agile and Scrum")
            // The second instance starts as Ana too (the stored session), logs her out there,
            // and creates Ben's account.
            let ben = try TmuxSession(dataDirectory: directory)
            try await ben.waitFor("Agile and Scrum")
            try ben.send("4", "l", "y")
            try await ben.waitFor("Sign in to EduGo")
            try ben.send("C-n")
            try await ben.waitFor("Create an EduGo account")
            try ben.type("Ben Okoro")
            try ben.send("Tab")
            try ben.type("ben@example.com")
            try ben.send("Tab")
            try ben.type("password-1")
            try ben.send("Enter")
            try await ben.waitFor("Ben Okoro")

            // Ben is the stored session now, and Ana was logged out elsewhere: her instance
            // still acts as Ana.
            try ana.send("f")
            try await ana.waitFor("Added Agile and Scrum in Real Teams to favourites")
            try ana.send("4", "e", "C-u")
            try ana.type("Ana Lima")
            try ana.send("Enter")
            try await ana.waitFor("Name updated")
            try ben.send("j", "f")
            try await ben.waitFor("Added Building a Design System to favourites")

            let database = try DatabaseQueue(path: directory.url.appendingPathComponent("edugo.sqlite").path)
            let rows = try await database.read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT user.email || ' ' || user.name || ' ' || favourite.course_id FROM favourite JOIN user ON user.id = favourite.user_id
                        ORDER BY user.email
                        """)
            }
            #expect(rows == ["ben@example.com Ben Okoro design-systems", "demo@edugo.dev Ana Lima agile-scrum"])
        }

        @Test("an unfinished mouse report (ESC [ <) blocks nothing: keys after it work, and Ctrl-C ends the app cleanly")
        func unfinishedMouseReport() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")

            try session.type("\u{1B}[<")
            try await Task.sleep(for: .milliseconds(300))
            try session.send("Down")
            try await session.waitFor("2/\(SeedCatalog.titles.count)")
            try session.type("\u{1B}[<0;12")
            try session.send("C-c")

            #expect(try await session.waitForExit() == 0)
            #expect(try await session.terminalRestored())
        }

        @Test(
            "the longest description a course may have (64 KiB of JSON) without a space opens and scrolls, and Ctrl-C ends the app with the terminal restored"
        )
        func hugeDescription() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let file = directory.url.appendingPathComponent("huge.json").path
            // A longer one is refused at import (CourseLimits.jsonBytes); CourseDetailTests lays out 1 MB.
            let description = String(repeating: "x", count: 65_000)
            let entry =
                #"[{"id": "aaa-huge", "title": "AAA Huge Course", "instructor": "I", "level": "beginner", "duration_minutes": 5, "price": 1, "currency": "EUR", "description": "\#(description)"}]"#
            _ = FileManager.default.createFile(atPath: file, contents: Data(entry.utf8))
            #expect(
                try await runTUI(["import-courses", file, "--data-dir", directory.url.appendingPathComponent("data").path]).status == 0)
            let session = try TmuxSession(dataDirectory: TemporaryDirectory(url: directory.url.appendingPathComponent("data")))
            try await session.signInIfAsked()
            try await session.waitFor("AAA Huge Course")

            try session.send("Enter")
            try await session.waitFor(String(repeating: "x", count: 76))
            try session.send("PageDown", "PageDown", "End")
            try await session.waitFor("the end of the page") { lines in lines.contains { $0.contains("1. AAA Huge Course") } }
            try session.send("C-c")

            #expect(try await session.waitForExit() == 0)
            #expect(try await session.terminalRestored())
        }

        @Test("import-courses in a terminal draws its progress: each step ticked off with its count and time, then the summary")
        func importProgress() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let file = Self.manyCourses(in: directory)
            // Drawn from the start: a small import on a fast machine may be over before the
            // half second after which the display shows itself.
            let session = try TmuxSession(arguments: ["import-courses", file], environment: ["EDUGO_IMPORT_PROGRESS_AFTER_MS": "0"])

            #expect(try await session.waitForExit() == 0)
            let screen = try await session.screen()
            #expect(!screen.contains { $0.contains(": done") }, "\(screen)")
            let steps = screen.filter { $0.hasPrefix("✓ ") }.map { $0.split(separator: "·").first.map(String.init) ?? $0 }
            #expect(
                steps == [
                    "✓ Reading the file ", "✓ Opening the database ", "✓ Ordering the catalog ", "✓ Writing courses ",
                    "✓ Indexing for search ",
                    "✓ Compacting the search index ", "✓ Finishing ",
                ], "\(screen)")
            #expect(screen.contains { $0.hasPrefix("✓ Reading the file · 3000 courses · ") && $0.hasSuffix(" s") }, "\(screen)")
            #expect(screen.contains { $0.hasPrefix("✓ Writing courses · 3000 courses · ") }, "\(screen)")
            // The summary names the file's whole path: it may wrap.
            #expect(screen.joined().contains(": 3000 added, 0 updated"), "\(screen)")
            // Nothing of the running line is left behind.
            let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
            #expect(!screen.contains { line in spinner.contains { line.contains($0) } }, "\(screen)")
        }

        /// A file of 3,000 courses, enough for an import's bulk path (more than 1,000 and a
        /// tenth of the catalog): its path.
        static func manyCourses(in directory: TemporaryDirectory) -> String {
            let file = directory.url.appendingPathComponent("many.json").path
            let entries = (0..<3_000).map { index in
                #"{"id": "gen-\#(index)", "title": "Generated \#(index)", "instructor": "I", "level": "beginner", "duration_minutes": 5, "price": 1, "currency": "EUR", "description": "D"}"#
            }
            _ = FileManager.default.createFile(atPath: file, contents: Data("[\(entries.joined(separator: ","))]".utf8))
            return file
        }

        @Test("with --accessible, import-courses says each step in words once it ends, and draws nothing again")
        func importProgressAccessible() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let file = Self.manyCourses(in: directory)
            let session = try TmuxSession(
                arguments: ["--accessible", "import-courses", file], environment: ["EDUGO_IMPORT_PROGRESS_AFTER_MS": "0"])

            #expect(try await session.waitForExit() == 0)
            let screen = try await session.screen()
            let steps = screen.filter { $0.contains(": done, ") }.map { $0.components(separatedBy: ": done").first ?? $0 }
            #expect(
                steps == [
                    "Reading the file", "Opening the database", "Ordering the catalog", "Writing courses", "Indexing for search",
                    "Compacting the search index",
                    "Finishing",
                ], "\(screen)")
            #expect(screen.contains { $0.hasPrefix("Writing courses: done, 3000 courses, ") }, "\(screen)")
            #expect(!screen.contains { $0.contains("✓") || $0.contains("━") }, "\(screen)")
        }

        @Test("a course file that tries to drive the terminal through the error message cannot: stderr is printable")
        func hostileImportMessage() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let file = directory.url.appendingPathComponent("hostile.json").path
            let entry =
                #"[{"id": "x\u001b]52;c;cHduZWQ=\u0007\u001b]0;PWNED\u0007\u001b[2J", "title": "T", "instructor": "I", "level": "beginner", "duration_minutes": 5, "price": 1, "currency": "EUR", "description": "D"}]"#
            _ = FileManager.default.createFile(atPath: file, contents: Data(entry.utf8))

            let result = try await runTUI(["import-courses", file, "--data-dir", directory.url.appendingPathComponent("data").path])

            #expect(result.status == 1)
            #expect(result.errors.contains(#"field "id" must be 1 to 64 of the characters"#), "\(result.errors)")
            #expect(
                !result.errors.dropLast().unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) },
                "\(result.errors.debugDescription)")
        }

        @Test("a fatal signal (a bad pointer) still gives the terminal back")
        func fatalSignal() async throws {
            let session = try TmuxSession(environment: ["SWIFT_BACKTRACE": "interactive=no"])
            try await session.waitFor("Sign in to EduGo")
            let pid = try #require(try session.appPID())

            kill(pid, SIGSEGV)

            #expect(try await session.waitForExit() == 128 + SIGSEGV)
            #expect(try await session.terminalRestored())
        }
    }
}
