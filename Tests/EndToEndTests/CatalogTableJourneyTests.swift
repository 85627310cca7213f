import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 14: a catalog a person can read at 80 columns and filter like a power user.
    @Suite("Journey: read and filter the catalog")
    struct CatalogTableJourneyTests {
        @Test("at 80×24 every built-in title shows whole, page after page")
        func wholeTitles() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            let total = SeedCatalog.titles.count
            var seen = try await session.waitFor("1/\(total)")
            var lines = Set(seen)
            // The selected row's number, `12/64` in the title line.
            let position: @Sendable ([String]) -> Int = { screen in
                screen.lazy.compactMap { line in
                    line.split(separator: " ").last { $0.hasSuffix("/\(total)") }.flatMap { Int($0.dropLast("/\(total)".count)) }
                }.first ?? 0
            }
            // A page at a time to the end: each page's rows are on screen once. Each wait is for
            // the selection to move on (any other redraw, a frame half sent, is not the page).
            // The selected row's title shows with its place: a capture of a frame half sent (the
            // title line new, the rows not yet) is not the page.
            for _ in 0..<(total / 20 + 1) where position(seen) < total {
                try session.send("PageDown")
                let before = position(seen)
                seen = try await session.waitFor("a page further than row \(before)") { screen in
                    let now = position(screen)
                    return now > before && screen.contains { $0.contains(SeedCatalog.titles[now - 1]) }
                }
                // The page is whole once two captures agree.
                var again = try await session.screen()
                while again != seen {
                    seen = again
                    again = try await session.screen()
                }
                lines.formUnion(seen)
            }
            #expect(seen.contains { $0.contains("\(total)/\(total)") })
            let cut = SeedCatalog.titles.filter { title in !lines.contains { $0.contains(title) } }
            #expect(cut.isEmpty, "titles not shown whole: \(cut)")
            // The header may shorten the data directory's name; the rows are another matter.
            let rows = lines.filter { line in SeedCatalog.titles.contains { line.contains(String($0.prefix(12))) } }
            #expect(!rows.contains { $0.contains("…") }, "nothing on the catalog's rows is cut: \(rows.filter { $0.contains("…") })")
        }

        @Test("plain letters find Søren, Łukasz and Yılmaz; cat:, level: and is: filters narrow; an unknown filter says so")
        func filters() async throws {
            let session = try TmuxSession()
            try await session.signInIfAsked()
            try await session.waitFor("Agile and Scrum")

            for (typed, instructor) in [("soren", "Søren Lindqvist"), ("lukasz", "Łukasz Nowak"), ("yilmaz", "İlker Yılmaz")] {
                try session.send("/")
                try session.type(typed)
                let count = SeedCatalog.entries.filter { $0.instructor == instructor }.count
                #expect(count > 0)
                try await session.waitFor("\(count) match\(count == 1 ? "" : "es")  1/\(count)")
                try session.send("Escape")
                try await session.waitFor("\(SeedCatalog.titles.count) courses")
            }

            let design = SeedCatalog.entries.filter { $0.category == "Design" && $0.level == "advanced" }
            try session.send("/")
            try session.type("cat:des level:adv")
            let narrowed = try await session.waitFor("\(design.count) match\(design.count == 1 ? "" : "es")")
            #expect(!design.isEmpty)
            for entry in design {
                #expect(narrowed.contains { $0.contains(entry.title) })
            }

            // What the demo learner can join now for free: Swift Fundamentals is free but
            // already theirs.
            try session.send("C-u")
            try session.type("is:open is:free")
            let open = try await session.waitFor("3 matches  1/3")
            #expect(open.contains { $0.contains("Data Ethics and Privacy") })
            #expect(!open.contains { $0.contains("Swift Fundamentals") })
            try session.send("Enter", "f")
            try await session.waitFor("Added Data Ethics and Privacy to favourites")
            try session.send("/", "C-u")
            try session.type("is:fav")
            let favourites = try await session.waitFor("1 match  1/1")
            #expect(favourites.contains { $0.contains("★  Data Ethics and Privacy") })

            try session.send("C-u")
            try session.type("foo:bar")
            // An unknown filter filters nothing: the whole catalog, and the reason.
            let total = SeedCatalog.titles.count
            try await session.waitFor("the unknown filter's message over the whole catalog") { lines in
                lines.contains { $0.contains("\(total) matches  1/\(total)") }
                    && lines.contains { $0.contains("Unknown filter \"foo:\" — the filters are cat:, level: and is:") }
            }
            try session.send("Escape", "?")
            try await session.waitFor("Search and filters")
            try session.send("G")
            let help = try await session.waitFor("is:open")
            #expect(help.contains { $0.contains("is:open") && $0.contains("you can enroll now") })
        }

        @Test("the account form puts each error under its field, keeps the password unless it was wrong, and Esc leaves it")
        func accountFormErrors() async throws {
            let session = try TmuxSession()
            try await session.waitFor("Sign in to EduGo")
            try session.send("C-n")
            try await session.waitFor("Create an EduGo account")
            try session.send("Enter")
            var screen = try await session.waitFor("Enter a name")
            #expect(try Self.line(after: "Name", in: screen).contains("Enter a name"))

            try session.type("Ana Lima")
            try session.send("Tab")
            try session.type("ana@")
            try session.send("Tab")
            try session.type("s3cret-pass")
            try session.send("Enter")
            screen = try await session.waitFor("Enter a valid email address")
            #expect(try Self.line(after: "Email", in: screen).contains("Enter a valid email address"))
            #expect(screen.contains { $0.contains("Password  •••••••••••") }, "the password was right: it stays")
            // The focus is on the email: typing fixes it, and the kept password signs in.
            try session.type("edugo.dev")
            try session.send("Tab", "C-u")
            try session.type("short")
            try session.send("Enter")
            screen = try await session.waitFor("Use a password of 8 or more characters")
            #expect(try Self.line(after: "Password", in: screen).contains("Use a password of 8 or more characters"))
            #expect(!screen.contains { $0.contains("•••••") }, "a refused password is cleared")
            // Esc leaves account creation; the email typed comes along to the sign-in form.
            try session.send("Escape")
            let signIn = try await session.waitFor("Sign in to EduGo")
            #expect(signIn.contains { $0.contains("Email     ana@edugo.dev") })
            try session.send("C-n")
            try await session.waitFor("Create an EduGo account")
            try session.type("Ana Lima")
            try session.send("Tab", "Tab")
            try session.type("s3cret-pass")
            try session.send("Enter")
            let signedIn = try await session.waitFor("Agile and Scrum")
            #expect(signedIn[0].hasSuffix("Ana Lima"))
        }

        /// The line under the form row labelled `label`.
        static func line(after label: String, in screen: [String]) throws -> String {
            let index = try #require(
                screen.firstIndex { line in
                    let text = line.trimmingCharacters(in: .whitespaces)
                    return text == label || text.hasPrefix(label + " ")
                })
            return screen.indices.contains(index + 1) ? screen[index + 1] : ""
        }
    }
}
