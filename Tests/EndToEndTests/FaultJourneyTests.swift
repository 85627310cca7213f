import Foundation
import GRDB
import ServerTestSupport
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 6: hostile data, odd terminals, signals and kills, and two instances at once.
    @Suite("Journey: bad input and faults")
    struct FaultJourneyTests {
        @Test("a course imported with escape sequences and bells leaves the screen intact, the pane title unchanged and no bell")
        func hostileText() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let title = "Aaa \u{1B}[2J\u{1B}]0;pwned\u{07}Hostile\u{07} \u{1B}[31mRed\u{9B}2J"
            let description = "\u{1B}[H\u{1B}[2JCleared?\u{1B}]2;retitled\u{1B}\\ Not at all.\u{07}"
            try Self.importCourses([["title": title, "description": description, "instructor": "Eve \u{1B}[5mBlink"]], into: directory)

            let session = try TmuxSession(dataDirectory: directory)
            let paneTitle = try session.paneTitle()
            try await session.signInIfAsked()

            let list = try await session.waitFor("Aaa Hostile Red")
            #expect(list[0].contains("1 Catalog"))
            #expect(list.contains { $0.contains("Agile and Scrum") })
            #expect(list[23].contains("move"))
            try session.send("Enter")
            let detail = try await session.waitFor("Not at all.")
            #expect(detail[0].contains("1 Catalog"))
            #expect(detail[1].contains("Aaa Hostile Red"))
            #expect(detail.contains { $0.contains("Cleared? Not at all.") })
            #expect(detail[2].contains("by Eve Blink"))
            #expect(try session.paneTitle() == paneTitle)
            #expect(try session.heardBell() == false)
            #expect(!paneTitle.contains("pwned") && !paneTitle.contains("retitled"))
        }

        @Test("? opens the help overlay over the screen and ? closes it")
        func helpOverlay() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")

            try session.send("?")
            let help = try await session.waitFor("Marks")
            try session.send("G")
            let end = try await session.waitFor("Catalog, My courses, Favourites, Profile")
            try session.send("?")

            #expect(help.contains { $0.contains("search title, instructor and tags") })
            #expect(help.contains { $0.contains("locked") && $0.contains("prerequisite") })
            #expect(end.contains { $0.contains("quit at once, from anywhere") })
            try await session.waitFor("the list without the help") { lines in
                !lines.contains { $0.contains("Everywhere") } && lines.contains { $0.contains("Agile and Scrum") }
            }
        }

        @Test("the mouse wheel scrolls the list and a click selects the row under it")
        func mouse() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            let total = SeedCatalog.titles.count

            try session.mouse(.wheelDown, x: 10, y: 6)
            try session.mouse(.wheelDown, x: 10, y: 6)
            try await session.waitFor("7/\(total)")
            try session.mouse(.wheelUp, x: 10, y: 6)
            try await session.waitFor("4/\(total)")
            // The list's rows start on screen row 3, under the title and the column names.
            try session.click(x: 10, y: 10)
            try await session.waitFor("8/\(total)")
            try session.send("Enter")

            let detail = try await session.waitFor("by ")
            #expect(detail[1].contains(SeedCatalog.titles[7]))
        }

        @Test("a resize below 60×16 and back keeps the search being typed", arguments: [(40, 10), (59, 24), (80, 15)])
        func resizeWhileSearching(width: Int, height: Int) async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            try session.send("/")
            try session.type("swi")
            try await session.waitFor("/ swi")

            try session.resize(width: width, height: height)
            try await session.waitFor("Terminal too small: need 60×16, have \(width)×\(height)".prefix(30).description)
            try session.resize(width: 80, height: 24)
            try await session.waitFor("/ swi")
            try session.type("ft")

            let screen = try await session.waitFor("/ swift ")
            #expect(screen.contains { $0.contains("Swift Fundamentals") })
            #expect(!screen.contains { $0.contains("Agile and Scrum") })
        }

        @Test("a resize while the catalog loads, then the list arrives at the new size")
        func resizeWhileLoading() async throws {
            // The catalog is held by the test, not by a latency: a stand-in server answers the
            // page only once the resizes are done (a loaded machine once took longer than 4 s
            // of --latency between seeing the tabs and reading the loading screen).
            let page = Gate()
            let server = try await EndToEnd.startStandInCatalog(count: 30, gate: page)
            try await server.stopping {
                do {
                    let session = try EndToEnd.standInSession(server)
                    try await session.signInIfAsked()
                    try await EndToEnd.waitForArrivals(1, at: page)
                    try await session.waitFor("Loading…")

                    try session.resize(width: 50, height: 12)
                    try await session.waitFor("Terminal too small")
                    try session.resize(width: 70, height: 20)
                    try await session.waitFor("Loading…")
                    await page.open()

                    let list = try await session.waitFor("Course 1 of the stand-in")
                    #expect(list.count == 20)
                    #expect(list[0].contains("1 Catalog"))
                    #expect(list.contains { $0.contains("Course 15 of the stand-in") })
                } catch {
                    await page.open()
                    throw error
                }
            }
        }

        @Test("a resize while the name is edited keeps the edit, and Enter then saves it")
        func resizeWhileEditingName() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            try session.send("4")
            try await session.waitFor("Member since")
            try session.send("e", "End")
            try session.type(" Ña")

            try session.resize(width: 30, height: 8)
            try await session.waitFor("Terminal too small")
            try session.resize(width: 100, height: 30)
            try await session.waitFor("Demo Learner Ña")
            try session.send("Enter")

            let saved = try await session.waitFor("Name updated")
            #expect(saved[0].hasSuffix("Demo Learner Ña"))
        }

        @Test("a resize on the course page redraws it at the new size")
        func resizeOnDetail() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.openCourse("Agile and Scrum in Real Teams")

            // tmux resizes the pane before the app redraws, keeping the old text: only a header or
            // footer right-aligned to the new width proves the app drew at that size.
            try session.resize(width: 60, height: 16)
            let small = try await session.waitFor("the page at 60×16") { lines in
                lines.count == 16 && lines[15].count > 50 && lines[15].hasSuffix("? help")
            }
            try session.resize(width: 120, height: 40)

            let large = try await session.waitFor("the page at 120×40") { lines in
                lines.count == 40 && lines[0].count > 110 && lines[0].hasSuffix("Demo Learner")
                    && lines.contains { $0.contains("Sprints, backlogs") }
            }
            #expect(small[0].contains("1 Catalog"))
            #expect(small[1].contains("Agile and Scrum"))
            #expect(large[1].contains("Agile and Scrum"))
        }

        @Test(
            "NO_COLOR, or a terminal without colours: no colour at all, the selection in reverse video; else colours",
            arguments: [
                (["NO_COLOR": "1"], false), (["TERM": "vt100"], false), ([:], true),
            ])
        func monochrome(environment: [String: String], coloured: Bool) async throws {
            let session = try TmuxSession(environment: environment)
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            try session.send("Down")
            try await session.waitFor("2/\(SeedCatalog.titles.count)")

            let styled = try await session.styledScreen()

            let selected = try #require(styled.first { $0.contains("Building a Desi") })
            let other = try #require(styled.first { $0.contains("Agile and Scrum") })
            #expect(selected.contains("\u{1B}[7m") != coloured, "\(selected.debugDescription)")
            #expect(!other.contains("\u{1B}[7m"))
            // Foreground or background colours; 39 and 49 (the terminal's defaults) are not colour.
            let colours = /\x1B\[([0-9;]*;)?(3[0-8]|4[0-8]|9[0-7]|10[0-7])(;[0-9;]*)?m/
            #expect(styled.contains { $0.contains(colours) } == coloured, "colour in \(styled.filter { $0.contains(colours) })")
        }

        @Test("TERM=dumb or an unknown terminal type exits 1 with a clear message", arguments: ["dumb", "no-such-terminal-42"])
        func unusableTerminal(term: String) async throws {
            let session = try TmuxSession(environment: ["TERM": term])

            #expect(try await session.waitForExit() == 1)
            let screen = try await session.screen().joined(separator: " ")
            #expect(screen.contains("tui cannot drive the terminal type \"\(term)\""))
            #expect(try await session.terminalRestored())
        }

        @Test("a data directory that cannot be created exits 1 with the reason")
        func uncreatableDataDirectory() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let file = directory.url.appendingPathComponent("notes.txt")
            _ = FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))

            let session = try TmuxSession(arguments: ["--data-dir", file.appendingPathComponent("edugo").path])

            #expect(try await session.waitForExit() == 1)
            let screen = try await session.screen().joined(separator: " ")
            #expect(screen.contains("cannot create the data directory"))
            #expect(screen.contains("Not a directory"))
        }

        @Test("an unwritable data directory exits 1 with the reason", .enabled(if: geteuid() != 0, "root may write anywhere"))
        func unwritableDataDirectory() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer {
                chmod(directory.path + "/locked", 0o700)
                directory.remove()
            }
            let locked = directory.url.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            chmod(locked.path, 0o500)

            let session = try TmuxSession(arguments: ["--data-dir", locked.appendingPathComponent("edugo").path])

            #expect(try await session.waitForExit() == 1)
            #expect(try await session.screen().joined(separator: " ").contains("Permission denied"))
        }

        @Test(
            "Ctrl-C quits at once inside a text field and a y/n question, and restores the terminal",
            arguments: [
                ["/", "a"], ["4", "e", "x"], ["4", "l"], ["2"],
            ])
        func controlCAnywhere(keys: [String]) async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")
            for key in keys {
                try session.send(key)
                try await Task.sleep(for: .milliseconds(150))
            }

            try session.send("C-c")

            #expect(try await session.waitForExit() == 0)
            #expect(try await session.terminalRestored())
        }

        @Test("Ctrl-C on the sign-in form, with text typed, quits and restores the terminal")
        func controlCAtSignIn() async throws {
            let session = try TmuxSession()
            try await session.waitFor("Sign in to EduGo")
            try session.type("demo@")

            try session.send("C-c")

            #expect(try await session.waitForExit() == 0)
            #expect(try await session.terminalRestored())
        }

        @Test("kill -9 in a burst of enrolls and favourites: integrity_check passes and every action confirmed on screen is stored")
        func killDuringBurst() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            var confirmedEnrollments: [String] = []
            var confirmedFavourites: [String] = []
            do {
                let session = try TmuxSession(arguments: ["--latency", "40"], dataDirectory: directory)
                try await session.signInIfAsked()
                try await session.waitFor("Agile and Scrum")
                // Enroll and favourite together on each page: both show at once, marked as
                // saving; the Status line without "(saving…)" confirms both.
                for title in ["Cloud Foundations on AWS", "Data Ethics and Privacy", "Guitar: First Steps"] {
                    try await session.openCourse(title)
                    // A paid course asks first (y); Data Ethics is free.
                    if title == "Data Ethics and Privacy" { try session.send("e", "f") } else { try session.send("e", "y", "f") }
                    try await session.waitFor("\(title) enrolled and favourite, saved") { lines in
                        lines.contains { $0.contains("Status        ✓ Enrolled   ★ Favourite") && !$0.contains("saving") }
                    }
                    confirmedEnrollments.append(title)
                    try session.send("Escape")
                }
                // A burst of favourites down rows 9–16 (none of them touched above, so each
                // is toggled once), killed while it is still going.
                try session.send("Home")
                try session.send("Down", times: 8)
                try await session.waitFor("9/\(SeedCatalog.titles.count)")
                for _ in 0..<8 {
                    try session.send("f", "j")
                    try await Task.sleep(for: .milliseconds(25))
                }
                let screen = try await session.screen()
                let styled = try await session.styledScreen()
                let pid = try #require(try session.appPID())
                kill(pid, SIGKILL)
                #expect(try await session.waitForExit() == 128 + SIGKILL)
                // Confirmed: the rows drawn with a ★ that is not dim (dim: still being saved),
                // and the course a footer message reports added.
                confirmedFavourites = zip(screen, styled).dropFirst(3).dropLast()
                    .filter { plain, styled in plain.hasPrefix(" ★") && !Self.starIsDim(styled) }
                    .map { plain, _ in
                        String(plain.dropFirst(4).prefix(while: { $0 != "…" })).components(separatedBy: "  ").first ?? ""
                    }
                if let footer = screen.last(where: { !$0.isEmpty }), let added = footer.range(of: "Added "),
                    let end = footer.range(of: " to favourites")
                {
                    confirmedFavourites.append(String(footer[added.upperBound..<end.lowerBound]))
                }
            }

            let database = try DatabaseQueue(path: directory.url.appendingPathComponent("edugo.sqlite").path)
            let (integrity, enrolled, favourites, counts) = try await database.read { db in
                (
                    try String.fetchAll(db, sql: "PRAGMA integrity_check"),
                    try String.fetchAll(
                        db,
                        sql: "SELECT course.title FROM enrollment JOIN course ON course.id = enrollment.course_id WHERE status != 'dropped'"
                    ),
                    try String.fetchAll(db, sql: "SELECT course.title FROM favourite JOIN course ON course.id = favourite.course_id"),
                    try Row.fetchAll(
                        db,
                        sql: """
                            SELECT course.title, course.enrolled_count,
                                   (SELECT count(*) FROM enrollment WHERE course_id = course.id AND status != 'dropped') AS taken
                            FROM course
                            """
                    ).map { ($0["title"] as String, $0["enrolled_count"] as Int, $0["taken"] as Int) }
                )
            }
            #expect(integrity == ["ok"])
            #expect(Set(confirmedEnrollments).isSubset(of: Set(enrolled)), "enrolled: \(enrolled)")
            #expect(!confirmedFavourites.isEmpty, "no ★ was on screen when the app was killed")
            for shown in confirmedFavourites {
                #expect(favourites.contains { $0.hasPrefix(shown) }, "\(shown) was ★ on screen but is not stored: \(favourites)")
            }
            // Each enroll moved its seat count in the same transaction, or not at all.
            let seeded = SeedCatalog.enrolledCounts
            for (title, count, taken) in counts {
                #expect(count == (seeded[title] ?? 0) + taken, "\(title): \(count) seats taken, \(taken) enrollments")
            }

            let restarted = try TmuxSession(dataDirectory: directory)
            try await restarted.signInIfAsked()
            try await restarted.waitFor("Agile and Scrum")
            try restarted.send("2")
            try await restarted.waitFor("My courses  \(enrolled.count) enrolled")
        }

        /// Whether the `★` of a row captured with its attributes was drawn dim: the last SGR
        /// sequence before it sets attribute 2.
        static func starIsDim(_ styled: String) -> Bool {
            guard let star = styled.range(of: "★") else { return false }
            let before = styled[..<star.lowerBound]
            guard let sgr = before.range(of: "\u{1B}[", options: .backwards) else { return false }
            let parameters = before[sgr.upperBound...].prefix { $0 != "m" }.split(separator: ";")
            return parameters.contains("2")
        }

        @Test("two instances on one data directory, both enrolling and toggling favourites, lose nothing")
        func twoInstances() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            let first = try TmuxSession(dataDirectory: directory)
            try await first.signInIfAsked()
            try await first.waitFor("Agile and Scrum")
            let second = try TmuxSession(dataDirectory: directory)
            try await second.signInIfAsked()
            try await second.waitFor("Agile and Scrum")

            // Both at once: the first favourites rows 1–6, the second rows 7–12, and each enrolls.
            try second.send("Down", times: 6)
            try await second.waitFor("7/\(SeedCatalog.titles.count)")
            for _ in 0..<6 {
                try first.send("f", "j")
                try second.send("f", "j")
            }
            try await first.waitFor("Added \(SeedCatalog.titles[5]) to favourites")
            // The row's mark, which stays, not the message, which may be gone by now.
            try await second.waitFor("the twelfth course marked ★") {
                $0.contains { $0.contains(SeedCatalog.titles[11]) && $0.contains("★") }
            }
            try await first.openCourse("Cloud Foundations on AWS")
            try await second.openCourse("Le français facile")
            try first.send("e", "y")
            try second.send("e", "y")
            try await first.waitFor("Enrolled in Cloud Foundations on AWS")
            // The page's status, not the footer's message: that one is gone after its few
            // seconds, which the wait for the first may have taken on a loaded machine.
            try await second.waitFor("✓ Enrolled")

            try first.send("3")
            try await first.waitFor("Favourites  12 courses")
            try first.send("2")
            try await first.waitFor("My courses  4 enrolled")  // the demo's own two, and one from each instance
            try second.send("3")
            try await second.waitFor("Favourites  12 courses")
        }

        // MARK: - Helpers

        /// Imports courses through the real binary's `import-courses`; each entry's fields
        /// override a valid course's.
        static func importCourses(_ overrides: [[String: Any]], into directory: TemporaryDirectory) throws {
            let courses: [[String: Any]] = overrides.enumerated().map { index, fields in
                var course: [String: Any] = [
                    "id": "imported-\(index)", "title": "Imported \(index)", "instructor": "Someone",
                    "level": "beginner", "duration_minutes": 30, "price": 5, "currency": "EUR", "description": "Text.",
                ]
                course.merge(fields) { $1 }
                return course
            }
            let file = directory.url.appendingPathComponent("import.json")
            try JSONSerialization.data(withJSONObject: courses).write(to: file)
            try TmuxSession.run(try TmuxSession.binaryPath(), ["import-courses", file.path, "--data-dir", directory.path])
        }
    }
}
