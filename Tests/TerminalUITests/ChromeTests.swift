import Foundation
import Presentation
import SharedKernel
import TerminalUI
import Testing

@Suite("Header, footer and state views")
@MainActor
struct ChromeTests {
    @Test("the header shows every tab, the current one styled, and the user's name")
    func header() {
        var canvas = TextCanvas(size: Size(width: 80, height: 1))

        HeaderBar.draw(
            in: &canvas, row: 0, tabs: ["Catalog", "My courses", "Favourites", "Profile"], selectedTab: 1, userName: "Demo Learner")

        let line = canvas.lines[0]
        #expect(line.hasPrefix(" EduGo   1 Catalog  2 My courses  3 Favourites  4 Profile"))
        #expect(line.hasSuffix("Demo Learner"))
        let column = line.distance(from: line.startIndex, to: line.range(of: "2 My courses")!.lowerBound)
        #expect(canvas.style(atX: column, y: 0) == .activeTab)
    }

    @Test("at the smallest size every tab still shows")
    func narrowHeader() {
        var canvas = TextCanvas(size: Size(width: 60, height: 1))

        HeaderBar.draw(in: &canvas, row: 0, tabs: ["Catalog", "My courses", "Favourites", "Profile"], selectedTab: 0, userName: "Zoë 山田")

        #expect(canvas.lines[0] == "  1 Catalog  2 My courses  3 Favourites  4 Profile  Zoë 山…")
    }

    @Test("five tabs at the smallest size: the short titles, and the name still shows")
    func shortTitles() {
        var canvas = TextCanvas(size: Size(width: 60, height: 1))
        let tabs = ["Catalog", "My courses", "Favourites", "Profile", "Review"]
        let short = ["Catalog", "Mine", "Favs", "Profile", "Review"]

        HeaderBar.draw(in: &canvas, row: 0, tabs: tabs, shortTabs: short, selectedTab: 4, userName: "Zoë 山田")

        #expect(canvas.lines[0] == "  1 Catalog  2 Mine  3 Favs  4 Profile  5 Review   Zoë 山田")
        #expect(HeaderBar.tab(atColumn: 45, tabs: tabs, shortTabs: short, width: 60, userName: "Zoë 山田") == 4)
        var wide = TextCanvas(size: Size(width: 80, height: 1))
        HeaderBar.draw(in: &wide, row: 0, tabs: tabs, shortTabs: short, selectedTab: 0, userName: "Demo Learner")
        #expect(wide.lines[0] == "  1 Catalog  2 My courses  3 Favourites  4 Profile  5 Review       Demo Learner")
    }

    @Test("a mark at the right edge takes its room from the tabs' titles, never from a tab: five tabs still show, and clicks find them")
    func markBesideFiveTabs() {
        let tabs = ["Catálogo", "Mis cursos", "Favoritos", "Perfil", "Repaso"]
        let short = ["Catálogo", "Míos", "Favs", "Perfil", "Repaso"]
        let mark = "✗ ajustes ⇡ 3 por sincronizar"
        var canvas = TextCanvas(size: Size(width: 80, height: 1))

        HeaderBar.draw(in: &canvas, row: 0, tabs: tabs, shortTabs: short, selectedTab: 0, userName: "Demo Learner", mark: mark)

        let line = canvas.lines[0]
        #expect(line.contains("4 Perfil  5 Repaso"), "\(line)")
        #expect(line.hasSuffix(mark))
        let column = line.distance(from: line.startIndex, to: line.range(of: "5 Repaso")?.lowerBound ?? line.endIndex)
        #expect(HeaderBar.tab(atColumn: column, tabs: tabs, shortTabs: short, width: 80, userName: "Demo Learner", mark: mark) == 4)
    }

    @Test("the courses being saved for offline beside five tabs at 80 columns, in English and Spanish")
    func savingBesideFiveTabs() {
        let languages = [
            (
                ["Catalog", "My courses", "Favourites", "Profile", "Review"], ["Catalog", "Mine", "Favs", "Profile", "Review"],
                "⇣ 3 of 8 saved for offline", "5 Review"
            ),
            (
                ["Catálogo", "Mis cursos", "Favoritos", "Perfil", "Repaso"], ["Catálogo", "Míos", "Favs", "Perfil", "Repaso"],
                "⇣ 3 de 8 cursos descargados", "5 Repaso"
            ),
        ]
        for (tabs, short, mark, last) in languages {
            var canvas = TextCanvas(size: Size(width: 80, height: 1))
            HeaderBar.draw(in: &canvas, row: 0, tabs: tabs, shortTabs: short, selectedTab: 0, userName: "Demo Learner", mark: mark)
            #expect(canvas.lines[0].contains(last), "\(canvas.lines[0])")
            #expect(canvas.lines[0].hasSuffix(mark), "\(canvas.lines[0])")
        }
    }

    @Test("the store and the counts before the name: all when they fit, the counts dropped first, the store kept from 80 columns")
    func status() {
        let tabs = ["Catalog", "My courses", "Favourites", "Profile", "Review"]
        let short = ["Catalog", "Mine", "Favs", "Profile", "Review"]
        let context = ["2 enrolled", "3 ★", "18 due"]
        func header(width: Int, name: String = "Ada") -> String {
            var canvas = TextCanvas(size: Size(width: width, height: 1))
            HeaderBar.draw(
                in: &canvas, row: 0, tabs: tabs, shortTabs: short, selectedTab: 0, userName: name, place: "edugo.example.org:8080 ●",
                context: context)
            return canvas.lines[0]
        }
        #expect(header(width: 160).hasSuffix("edugo.example.org:8080 ● · 2 enrolled · 3 ★ · 18 due · Ada"))
        #expect(header(width: 120).hasSuffix("   edugo.example.org:8080 ● · 3 ★ · 18 due · Ada"), "\(header(width: 120))")
        #expect(header(width: 120).contains("2 My courses"))
        #expect(
            header(width: 80, name: "Demo Learner")
                == "  1 Catalog  2 Mine  3 Favs  4 Profile  5 Review    edug…:8080 ● · Demo Learner",
            "the short titles make room for the store")
        #expect(
            HeaderBar.tab(atColumn: 18, tabs: tabs, shortTabs: short, width: 80, userName: "Ada", place: "edugo.example.org:8080 ●") == 1)
        #expect(header(width: 79).hasSuffix("5 Review         Ada") == false && !header(width: 60).contains("edugo"), "below 80 it may go")
        // A short store and a 12-column name: the tabs shorten for them too.
        var short80 = TextCanvas(size: Size(width: 80, height: 1))
        HeaderBar.draw(in: &short80, row: 0, tabs: tabs, shortTabs: short, selectedTab: 0, userName: "Demo Learner", place: "/tmp/try1")
        #expect(
            short80.lines[0].hasSuffix("5 Review  /tmp/try1 · Demo Learner") || short80.lines[0].contains("/tmp/try1 · Demo Learner"),
            "\(short80.lines[0])")
    }

    @Test("the server out of reach: ⚠ once, in the store's place; before the name only where the place gives way (writes waiting)")
    func outageMarkOnce() {
        let tabs = ["Catalog", "My courses", "Favourites", "Profile", "Review"]
        let short = ["Catalog", "Mine", "Favs", "Profile", "Review"]
        func header(width: Int, mark: String? = nil) -> String {
            var canvas = TextCanvas(size: Size(width: width, height: 1))
            HeaderBar.draw(
                in: &canvas, row: 0, tabs: tabs, shortTabs: short, selectedTab: 0, userName: "Demo Learner", mark: mark,
                place: "127.0.0.1:8811 ⚠", nameMark: "⚠")
            return canvas.lines[0]
        }
        #expect(header(width: 80) == "  1 Catalog  2 Mine  3 Favs  4 Profile  5 Review    127.…:8811 ⚠ · Demo Learner")
        let waiting = header(width: 80, mark: "⇡ 1 to sync")
        #expect(!waiting.contains("127"), "the place gave way: \(waiting)")
        #expect(waiting.contains("⚠ Demo"), "so the name carries the mark: \(waiting)")
        #expect(waiting.filter { $0 == "⚠" }.count == 1)
    }

    @Test("the footer shows the keys, and a status message before them")
    func footer() {
        var canvas = TextCanvas(size: Size(width: 80, height: 2))

        Footer.draw(in: &canvas, row: 0, hints: [KeyHint("Enter", "open"), KeyHint("q", "quit")], status: nil, texts: .english)
        Footer.draw(in: &canvas, row: 1, hints: [KeyHint("q", "quit")], status: StatusMessage("Reloaded", kind: .success), texts: .english)

        #expect(canvas.lines == [" Enter open  q quit", " Reloaded   q quit"])
        #expect(canvas.style(atX: 1, y: 1) == .success)
    }

    @Test("loading, error and message states are centred")
    func states() {
        var canvas = TextCanvas(size: Size(width: 40, height: 6))
        let area = Rect(x: 0, y: 0, width: 40, height: 6)

        StateView.drawLoading(in: &canvas, area: area, tick: 0, texts: .english)
        #expect(canvas.text.contains("⠋ Loading…"))

        var errorCanvas = TextCanvas(size: Size(width: 40, height: 6))
        StateView.drawError("Cannot reach the catalog.", in: &errorCanvas, area: area, texts: .english)
        #expect(errorCanvas.lines.contains { $0.trimmingCharacters(in: .whitespaces) == "Cannot reach the catalog." })
        #expect(errorCanvas.lines.contains { $0.trimmingCharacters(in: .whitespaces) == "Press r to retry" })
    }
}

@Suite("The unenroll question")
@MainActor
struct UnenrollQuestionTests {
    @Test(
        "it says the progress is kept, and fits the footer: the title cut before the words, shorter words on a narrow line",
        arguments: [
            (
                "Agile and Scrum in Real Teams", 3, 6, 120,
                " Unenroll from Agile and Scrum in Real Teams? Your progress (3 of 6 lessons) is kept. (y/n)"
            ),
            ("Agile and Scrum in Real Teams", 3, 6, 80, " Unenroll from Agile and Scrum in Real Teams? 3 of 6 lessons kept. (y/n)"),
            ("Git", 1, 6, 80, " Unenroll from Git? Your progress (1 of 6 lessons) is kept. (y/n)"),
            (
                "Infrastructure as Code with Terraform", 8, 8, 80,
                " Unenroll from Infrastructure as Code with T…? 8 of 8 lessons kept. (y/n)"
            ),
            ("Agile and Scrum in Real Teams", 3, 6, 60, " Unenroll from Agile and…? 3 of 6 lessons kept. (y/n)"),
            ("Agile and Scrum in Real Teams", 0, 6, 60, " Unenroll from Agile and Scrum in Real Teams? (y/n)"),
            ("Lone", 1, 1, 80, " Unenroll from Lone? Your progress (1 of 1 lesson) is kept. (y/n)"),
            // Where no ending leaves room for a little of the title: the bare question, still answerable.
            ("Agile and Scrum in Real Teams", 3, 6, 44, " Unenroll from Agile and Scru…? (y/n)"),
        ])
    func fits(title: String, done: Int, lessons: Int, width: Int, line: String) {
        var canvas = TextCanvas(size: Size(width: width, height: 1))

        // As the shell draws a question: the answer key pinned at the right.
        Footer.draw(
            in: &canvas, row: 0, hints: [KeyHint("y", "yes")], status: .unenrollQuestion(title: title, lessonsDone: done, of: lessons),
            pinned: KeyHint("n", "no"), texts: .english)

        #expect(canvas.lines[0].hasPrefix(line))
        #expect(canvas.lines[0].hasSuffix("n no"))
    }

    @Test(
        "in Spanish the verb agrees with the lessons done, not with the lessons in all: se conserva 1, se conservan 3",
        arguments: [
            (1, 6, "¿Darte de baja de Agile and Scrum in Real Teams? Se conserva 1 de 6 lecciones. (s/n)"),
            (3, 6, "¿Darte de baja de Agile and Scrum in Real Teams? Se conservan 3 de 6 lecciones. (s/n)"),
            (1, 1, "¿Darte de baja de Agile and Scrum in Real Teams? Se conserva 1 de 1 lección. (s/n)"),
        ])
    func spanishAgreement(done: Int, lessons: Int, line: String) {
        var canvas = TextCanvas(size: Size(width: 100, height: 1))
        defer {
            // At 60 columns, Spanish's longer words: the bare question, never one cut before (s/n).
            var narrow = TextCanvas(size: Size(width: 60, height: 1))
            Footer.draw(
                in: &narrow, row: 0, hints: [KeyHint("y", "yes")],
                status: .unenrollQuestion(title: "Public Speaking for Engineers", lessonsDone: done, of: lessons),
                pinned: KeyHint("n", "no"), texts: Texts(.spanish))
            #expect(narrow.lines[0].contains("? (s/n)"), "\(narrow.lines[0])")
        }

        Footer.draw(
            in: &canvas, row: 0, hints: [KeyHint("y", "yes")],
            status: .unenrollQuestion(title: "Agile and Scrum in Real Teams", lessonsDone: done, of: lessons), pinned: KeyHint("n", "no"),
            texts: Texts(.spanish))

        #expect(canvas.lines[0].contains(line), "\(canvas.lines[0])")
    }
}

@Suite("Progress bar")
struct ProgressBarTests {
    @Test(
        "the percentage as the language writes it (16%, 16 %), right-aligned to 100's width so the bars of a column end together",
        arguments: [
            (Language.english, 16, "██░░░░░░░░░░░░░  16%"), (.english, 100, "███████████████ 100%"),
            (.spanish, 16, "██░░░░░░░░░░░░  16 %"), (.spanish, 100, "██████████████ 100 %"),
        ])
    func percent(language: Language, percent: Int, expected: String) {
        #expect(ProgressBar.text(percent: percent, width: 20, language: language) == expected)
    }
}
