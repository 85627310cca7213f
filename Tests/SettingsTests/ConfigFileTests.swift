import Foundation
import Presentation
import Settings
import SharedKernel
import TerminalUI
import Testing

/// The config file: every bad file is refused with its line and key; the default file is
/// complete, valid, and reads back as the defaults.
@Suite("Settings: the config file")
struct ConfigFileTests {
    static let bad: [(name: String, text: String, line: Int?, key: String?)] = [
        ("a TOML syntax error", "[theme\nname = \"light\"\n", 1, nil),
        ("an unterminated string", "[theme]\nname = \"light\n", 2, nil),
        ("an unknown table", "# colours\n[colours]\naccent = \"red\"\n", 2, "colours"),
        ("an unknown top-level key", "language_x = \"es\"\n", 1, "language_x"),
        ("a theme that is not a table", "theme = \"light\"\n", 1, "theme"),
        ("an unknown theme key", "[theme]\nnmae = \"light\"\n", 2, "theme.nmae"),
        ("a theme name of the wrong type", "[theme]\n\nname = 3\n", 3, "theme.name"),
        ("an unknown theme", "[theme]\nname = \"solarized\"\n", 2, "theme.name"),
        ("a colour that is no colour", "[theme]\nname = \"light\"\naccent = \"purpel\"\n", 3, "theme.accent"),
        ("a colour number past 255", "[theme]\nmarks = \"256\"\n", 2, "theme.marks"),
        ("a colour of the wrong type", "[theme]\naccent = 5\n", 2, "theme.accent"),
        ("a short #rrggbb", "[theme]\nselection = { fg = \"black\", bg = \"#12345\" }\n", 2, "theme.selection.bg"),
        ("an unknown key of a role", "[theme]\nheader = { foreground = \"red\" }\n", 2, "theme.header.foreground"),
        ("a dotted key into a theme role", "theme.code.fg = \"nope\"\n", 1, "theme.code.fg"),
        ("a profile without a server", "[profiles.work]\nemail = \"a@b.org\"\n", 1, "profiles.work"),
        ("a profile's server that is not http", "[profiles.work]\nserver = \"ftp://x.org\"\n", 2, "profiles.work.server"),
        (
            "a profile's email that is not one", "[profiles.\"my work\"]\nserver = \"https://x.org\"\nemail = \"nobody\"\n", 3,
            "profiles.my work.email"
        ),
        ("a password in a profile", "[profiles.work]\nserver = \"https://x.org\"\npassword = \"secret\"\n", 3, "profiles.work.password"),
        ("profiles that are not tables", "profiles = 1\n", 1, "profiles"),
        ("a wide layout too narrow", "# wide\nwide_layout_columns = 50\n", 2, "wide_layout_columns"),
        ("a wide layout that is not a number", "wide_layout_columns = \"wide\"\n", 1, "wide_layout_columns"),
        ("a language the app does not have", "language = \"fr\"\n", 1, "language"),
        ("a language that is a locale, not a code", "\nlanguage = \"es_ES.UTF-8\"\n", 2, "language"),
        ("a language of the wrong type", "\n\nlanguage = 2\n", 3, "language"),
        ("accessible that is not true or false", "accessible = \"yes\"\n", 1, "accessible"),
        ("review that is not a table", "review = 0.9\n", 1, "review"),
        ("an unknown review key", "[review]\nretention = 0.9\nmaximum_interval = 30\n", 3, "review.maximum_interval"),
        ("a retention too high", "[review]\n\nretention = 0.99\n", 3, "review.retention"),
        ("a retention too low", "[review]\nretention = 0.5\n", 2, "review.retention"),
        ("a retention as a percentage", "[review]\nretention = 90\n", 2, "review.retention"),
        ("a retention of the wrong type", "[review]\nretention = \"high\"\n", 2, "review.retention"),
        ("steps without units", "[review]\nlearning_steps = \"1 10\"\n", 2, "review.learning_steps"),
        ("steps as a list", "[review]\nlearning_steps = [\"1m\"]\n", 2, "review.learning_steps"),
        ("a step past a day", "[review]\nrelearning_steps = \"2d\"\n", 2, "review.relearning_steps"),
        ("a step of nothing", "[review]\nrelearning_steps = \"0m\"\n", 2, "review.relearning_steps"),
        ("an offline cap below nothing", "[offline]\nmax_megabytes = -1\n", 2, "offline.max_megabytes"),
        ("an offline cap in words", "[offline]\nmax_megabytes = \"lots\"\n", 2, "offline.max_megabytes"),
        ("an unknown offline key", "[offline]\nmax_courses = 8\n", 2, "offline.max_courses"),
        ("eleven steps", "[review]\nlearning_steps = \"1m 1m 1m 1m 1m 1m 1m 1m 1m 1m 1m\"\n", 2, "review.learning_steps"),
    ]

    /// A catalog's actions beside two global ones, as the app gives them.
    static let contexts = [
        KeyContext(
            "catalog",
            own: [
                KeyAction("catalog.search", .character("/")), KeyAction("catalog.favourite", .character("f")),
                KeyAction("list.up", .up), KeyAction("list.down", .down),
            ], global: [KeyAction("global.quit", .character("q")), KeyAction("global.back", .escape)])
    ]

    static let badKeys: [(name: String, text: String, line: Int?, key: String?)] = [
        ("an unknown action", "[keys]\n\"catalog.serch\" = \"ctrl-f\"\n", 2, "keys.catalog.serch"),
        ("a key that is not one", "[keys]\n\"catalog.search\" = \"ctrl-ä\"\n", 2, "keys.catalog.search"),
        ("a key of the wrong type", "[keys]\n\"catalog.search\" = 6\n", 2, "keys.catalog.search"),
        ("an empty list of keys", "[keys]\n\"catalog.search\" = []\n", 2, "keys.catalog.search"),
        ("a preset there is not", "[keys]\npreset = \"emacs\"\n", 2, "keys.preset"),
        ("one key for two actions", "[keys]\n\n\"catalog.search\" = \"f\"\n", 3, "keys.catalog.search"),
        ("a global key taken", "[keys]\n\"list.down\" = [\"j\", \"q\"]\n", 2, "keys.list.down"),
        ("keys that are not a table", "keys = \"vim\"\n", 1, "keys"),
    ]

    @Test("a bad [keys] is refused naming its line and key", arguments: badKeys.indices)
    func refusedKeys(_ index: Int) {
        let (_, text, line, key) = Self.badKeys[index]
        #expect {
            try ConfigFile.parse(text, path: "config.toml", contexts: Self.contexts)
        } throws: { error in
            guard let problem = error as? ConfigProblem else { return false }
            return problem.line == line && problem.key == key
        }
    }

    @Test("a key bound to two actions of one screen names the screen in the reader's words")
    func clashNamesTheScreen() {
        #expect {
            try ConfigFile.parse("[keys]\n\"catalog.search\" = \"f\"\n", path: "config.toml", contexts: Self.contexts)
        } throws: { error in
            guard let problem = error as? ConfigProblem else { return false }
            let english = Texts.english(problem.reason)
            let spanish = Texts(.spanish)(problem.reason)
            return english.hasSuffix("on the catalog screen") && spanish.hasSuffix("en la pantalla del catálogo")
        }
    }

    @Test("[keys] binds actions, by quoted names or nested tables, to one key or several")
    func keys() throws {
        let settings = try ConfigFile.parse(
            """
            [keys]
            preset = "default"
            "catalog.search" = "ctrl-f"
            list.down = ["n", "down"]
            list.up = "e"
            """, path: "config.toml", contexts: Self.contexts)
        #expect(
            settings.keys
                == KeyBindings([
                    "catalog.search": [.control("f")], "list.down": [.character("n"), .down], "list.up": [.character("e")],
                ]))
        let nested = try ConfigFile.parse("[keys.list]\nup = \"e\"\n", path: "config.toml", contexts: Self.contexts)
        #expect(nested.keys == KeyBindings(["list.up": [.character("e")]]))
    }

    @Test("preset = \"vim\" adds vim's keys beside the defaults and any bound here; binding h elsewhere is no clash")
    func vimPreset() throws {
        let settings = try ConfigFile.parse(
            """
            [keys]
            preset = "vim"
            "catalog.search" = "ctrl-f"
            "catalog.favourite" = "h"
            """, path: "config.toml", contexts: Self.contexts)
        #expect(settings.keys.keys == ["catalog.search": [.control("f")], "catalog.favourite": [.character("h")]])
        #expect(settings.keys.extra == KeyPreset.vim.extra)
    }

    @Test("language and accessible are read; without them, no language named (the locale decides) and the usual layout")
    func languageAndAccessible() throws {
        let set = try ConfigFile.parse("language = \"es\"\naccessible = true\n", path: "config.toml")
        #expect(set.language == .spanish && set.accessible)
        let unset = try ConfigFile.parse("", path: "config.toml")
        #expect(unset.language == nil && !unset.accessible)
    }

    @Test("[offline] max_megabytes caps what remote mode saves; 200 unless said, 0 saves none")
    func offline() throws {
        #expect(try ConfigFile.parse("", path: "c").offlineMegabytes == 200)
        #expect(try ConfigFile.parse("[offline]\nmax_megabytes = 50\n", path: "c").offlineMegabytes == 50)
        #expect(try ConfigFile.parse("[offline]\nmax_megabytes = 0\n", path: "c").offlineMegabytes == 0)
        #expect(try ConfigFile.parse("[offline]\n", path: "c").offlineMegabytes == 200)
    }

    @Test("[review] sets the retention and the steps, Anki's way (s, m, h, d); empty steps are none")
    func review() throws {
        let set = try ConfigFile.parse(
            "[review]\nretention = 0.85\nlearning_steps = \"30s 5m 1h\"\nrelearning_steps = \"\"\n", path: "config.toml")
        #expect(set.review == (try ReviewSettings(retention: 0.85, learningSteps: [30, 300, 3_600], relearningSteps: [])))
        #expect(try ConfigFile.parse("[review]\nlearning_steps = \"1d\"\n", path: "c").review.learningSteps == [86_400])
        #expect(try ConfigFile.parse("", path: "c").review == .default)
        #expect(throws: ConfigProblem.self) { try ConfigFile.parse("[review]\nretention = 0.98\n", path: "c") }
        do {
            _ = try ConfigFile.parse("[review]\nretention = 0.98\n", path: "config.toml")
        } catch {
            #expect(error.description == "config.toml:2: review.retention: " + ReviewSettingsRejection.retention(0.98).message.english)
            #expect(error.description.contains("0.70 to 0.97"), "the reason, whole")
        }
    }

    @Test("a bad file is refused naming its line and key", arguments: bad.indices)
    func refused(_ index: Int) {
        let (_, text, line, key) = Self.bad[index]
        #expect {
            try ConfigFile.parse(text, path: "config.toml")
        } throws: { error in
            guard let problem = error as? ConfigProblem else { return false }
            return problem.line == line && problem.key == key && problem.description.hasPrefix("config.toml:\(line.map(String.init) ?? "")")
        }
    }

    @Test(
        "the default file is valid, names every role, and read with every line uncommented is the defaults, in every language",
        arguments: Language.all)
    func defaultsRoundTrip(_ language: Language) throws {
        let text = ConfigFile.defaultText(contexts: Self.contexts, texts: Texts(language))
        #expect(try ConfigFile.parse(text, path: "defaults", contexts: Self.contexts) == .defaults, "as printed: all commented")
        // Every action listed with its default key; uncommented, they bind what is bound already.
        let actions = text.split(separator: "\n").filter { $0.wholeMatch(of: /# "[a-z_.]+" = .*/) != nil }.map { String($0.dropFirst(2)) }
        #expect(actions.contains("\"catalog.search\" = \"/\""))
        let bound = try ConfigFile.parse("[keys]\n" + actions.joined(separator: "\n"), path: "keys", contexts: Self.contexts)
        #expect(bound.keys.keys.count == 6)
        #expect(bound.keys.keys["list.down"] == [.down])
        for role in Theme.roles { #expect(text.contains("# \(role.name) = "), "\(role.name)") }
        // Uncommented, each setting says what the default is (the example profile aside, and
        // the language: unset, the locale decides; the line names English as an example).
        #expect(text.contains("# language = \"en\""))
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.wholeMatch(of: /# [a-z_]+ = .*/) != nil, !line.contains("server ="), !line.contains("email ="),
                !line.contains("language =")
            else {
                return String(line)
            }
            return String(line.dropFirst(2))
        }.joined(separator: "\n")
        #expect(try ConfigFile.parse(uncommented, path: "uncommented", contexts: Self.contexts) == .defaults)
    }

    @Test("a theme by name with roles changed; profiles by name")
    func valid() throws {
        let settings = try ConfigFile.parse(
            """
            [theme]
            name = "light"
            accent = "#ff0000"
            selection = { bg = "bright-yellow" }

            [profiles.work]
            server = "https://edugo.example.org"
            email = "ada@example.org"
            """, path: "config.toml")
        var expected = Theme.light
        expected[.accent].foreground = .rgb(red: 255, green: 0, blue: 0)
        expected[.selection].background = .indexed(11)
        #expect(settings.theme == expected)
        #expect(settings.profiles == ["work": ConnectionProfile(server: "https://edugo.example.org", email: "ada@example.org")])
        #expect(settings.wideLayoutColumns == 140, "the default")
        #expect(try ConfigFile.parse("wide_layout_columns = 0", path: "c").wideLayoutColumns == nil, "0: never")
        #expect(try ConfigFile.parse("wide_layout_columns = 200", path: "c").wideLayoutColumns == 200)
    }

    @Test(
        "where the file is: --config, else EDUGO_CONFIG, else XDG_CONFIG_HOME, else ~/.config",
        arguments: [
            ("/etc/a.toml", [:], "/etc/a.toml", true),
            (nil, ["EDUGO_CONFIG": "/tmp/b.toml", "XDG_CONFIG_HOME": "/x"], "/tmp/b.toml", true),
            (nil, ["XDG_CONFIG_HOME": "/x"], "/x/edugo/config.toml", false),
            (nil, ["XDG_CONFIG_HOME": "relative"], "/home/ada/.config/edugo/config.toml", false),
            (nil, [:], "/home/ada/.config/edugo/config.toml", false),
        ] as [(String?, [String: String], String, Bool)])
    func location(option: String?, environment: [String: String], path: String, explicit: Bool) {
        let found = ConfigFile.location(option: option, environment: environment, home: "/home/ada")
        #expect(found.path == path && found.explicit == explicit)
    }

    @Test("a missing file is the defaults unless it was named; a named one must exist")
    func missing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).toml").path
        #expect(try ConfigFile.load(path: path, explicit: false) == .defaults)
        #expect(throws: ConfigProblem(path: path, line: nil, key: nil, reason: "no such file")) {
            try ConfigFile.load(path: path, explicit: true)
        }
    }

    // MARK: - Reading the file (issue 39, items 4 and 12)

    @Test(
        "a NUL or another control character is refused with its line; tabs and CRLF line ends are text",
        arguments: [
            ("language = \"en\"\n\0accessible = true\n", 2, "U+0000"),
            ("# a comment\n\n[theme]\nname = \"light\u{1B}[2J\"\n", 4, "U+001B"),
            ("accessible = true\r\nlanguage = \"en\"\rx\n", 2, "U+000D"),
            ("language = \"en\"\u{7F}\n", 1, "U+007F"),
        ] as [(String, Int, String)])
    func controlCharacters(text: String, line: Int, character: String) throws {
        let file = try Self.file(Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }

        #expect(throws: ConfigProblem(path: file, line: line, key: nil, reason: "holds a control character (\(verbatim: character))")) {
            try ConfigFile.load(path: file, explicit: true)
        }
    }

    @Test("tabs and CRLF line ends are text")
    func tabsAndCRLF() throws {
        let file = try Self.file(Data("\tlanguage = \"es\"\r\naccessible = true\r\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }

        let settings = try ConfigFile.load(path: file, explicit: true)

        #expect(settings.language == .spanish && settings.accessible == true)
    }

    @Test("a file of 1 GiB is refused by its size (its memory, `tui config --check`'s peak, is ConfigJourneyTests')")
    func hugeFile() throws {
        let file = try Self.file(Data())
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(truncate(file, 1 << 30) == 0)

        #expect(throws: ConfigProblem(path: file, line: nil, key: nil, reason: "is larger than 1 MiB")) {
            try ConfigFile.load(path: file, explicit: true)
        }
    }

    @Test("a device that never ends is read no further than the limit; a pipe is refused without blocking")
    func notRegularFiles() throws {
        #expect(throws: ConfigProblem(path: "/dev/zero", line: nil, key: nil, reason: "is not a regular file")) {
            try ConfigFile.load(path: "/dev/zero", explicit: true)
        }
        let pipe = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-pipe-\(UUID().uuidString)").path
        #expect(mkfifo(pipe, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: pipe) }
        #expect(throws: ConfigProblem(path: pipe, line: nil, key: nil, reason: "is not a regular file")) {
            try ConfigFile.load(path: pipe, explicit: true)
        }
    }

    @Test("a loop of symbolic links says so, not \"no such file\"")
    func symlinkLoop() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-loop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (a, b) = (folder.appendingPathComponent("a.toml").path, folder.appendingPathComponent("b.toml").path)
        try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: b)
        try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: a)

        #expect(throws: ConfigProblem(path: a, line: nil, key: nil, reason: "is a loop of symbolic links")) {
            try ConfigFile.load(path: a, explicit: false)
        }
    }

    /// A new file in the temporary directory holding `data`; its path.
    static func file(_ data: Data) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-config-\(UUID().uuidString).toml").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }
}
