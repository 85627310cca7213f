import Foundation
import Presentation
import SharedKernel
import TOMLKit
import TerminalUI

/// The config file: where it is, what it may hold, and its complete default text.
/// Everything in it is checked: unknown keys, wrong types, unknown names are refused with
/// their line and key, never ignored.
public enum ConfigFile {
    /// `--config PATH`, else `EDUGO_CONFIG`, else `$XDG_CONFIG_HOME/edugo/config.toml`, else
    /// `~/.config/edugo/config.toml`. `explicit`: named by the user, so it must exist.
    public static func location(option: String?, environment: [String: String], home: String) -> (path: String, explicit: Bool) {
        if let option, !option.isEmpty { return (option, true) }
        if let named = environment["EDUGO_CONFIG"], !named.isEmpty { return (named, true) }
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (home + "/.config")
        return (base + "/edugo/config.toml", false)
    }

    /// The settings of the file at `path`: the defaults when it does not exist (and was not
    /// named by the user), else what it says, or why it cannot be used.
    public static func load(path: String, explicit: Bool, contexts: [KeyContext] = []) throws(ConfigProblem) -> Settings {
        guard let text = try ConfigFileReader.text(path: path, limit: maximumBytes) else {
            if explicit { throw ConfigProblem(path: path, line: nil, key: nil, reason: "no such file") }
            return .defaults
        }
        return try parse(text, path: path, contexts: contexts)
    }

    static let maximumBytes = 1 << 20

    /// The settings `text` sets, or its first problem. `contexts`: the actions `[keys]` may
    /// bind, where each key means one thing.
    public static func parse(_ text: String, path: String, contexts: [KeyContext] = []) throws(ConfigProblem) -> Settings {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigProblem(path: path, line: error.source.begin.line, key: nil, reason: .verbatim(error.description))
        } catch {
            throw ConfigProblem(path: path, line: nil, key: nil, reason: "is not TOML: \(verbatim: String(describing: error))")
        }
        var reader = ConfigReader(text: text, path: path, contexts: contexts)
        return try reader.settings(from: table)
    }

    /// Every setting with its default and what it does, as comments: a file to copy, its
    /// comments in `texts`' language (the settings' names and values are the file's own).
    /// `contexts`: the actions `[keys]` lists.
    public static func defaultText(contexts: [KeyContext] = [], texts: Texts = .english) -> String {
        /// A paragraph of comment, wrapped to the file's width.
        func comment(_ text: LocalizedText) -> [String] {
            TextWrapper.wrap(texts(text), width: 98).map { "# " + $0 }
        }
        let themes = Theme.builtInNames.map { "\"\($0)\"" }.joined(separator: ", ")
        let languages = Language.all.map { "\"\($0.code)\"" }.joined(separator: ", ")
        var lines = comment("EduGo Terminal's settings. Every line below is the default; remove the `#` to change one.")
        lines += comment(
            "Where this file is read from: --config PATH, else $EDUGO_CONFIG, else $XDG_CONFIG_HOME/edugo/config.toml, else ~/.config/edugo/config.toml."
        )
        lines += comment("Check a file with: tui config --check PATH")
        lines += [""]
        lines += comment("From this many columns the catalog shows the selected course beside the list; 0: never.")
        lines += ["# wide_layout_columns = 140", ""]
        lines += comment(
            "The language: \(languages). Only --language comes first; without this line the locale (LC_ALL, LC_MESSAGES, LANG) decides.")
        lines += ["# language = \"en\"", ""]
        lines += comment(
            "The accessible mode, as --accessible: the cursor on the selected row, words for marks, no box drawing or animation.")
        lines += ["# accessible = false", "", "[review]"]
        lines += comment(
            "The share of cards you want to still know when they come back, from 0.70 to 0.97: higher means more reviews.")
        lines += ["# retention = 0.9"]
        lines += comment("Same-day steps of a new card, and of a card you forgot: s, m, h or d each, from 1s to 1d; \"\" for none.")
        lines += ["# learning_steps = \"1m 10m\"", "# relearning_steps = \"10m\"", ""] + offlineLines(comment) + ["[theme]"]
        lines += comment("The colours: \(themes). NO_COLOR=1 always means none.")
        lines += ["# name = \"default\"", "#"]
        lines += comment(
            "Change one role of the theme: a colour (a name such as \"blue\" or \"bright-red\", 0-255, or \"#rrggbb\", shown as the nearest colour the terminal has), or { fg = \"…\", bg = \"…\" }."
        )
        for role in Theme.roles {
            lines.append("# \(role.name) = \(ConfigReader.describe(Theme.standard[role.style]))  # \(texts(role.what))")
        }
        lines += [""]
        lines += comment(
            "Keys: bind an action to other keys (\"ctrl-f\", \"G\", \"f5\", \"pgdn\", or a list of them); they replace its default key. Within one screen a key means one thing. Every action and its default:"
        )
        lines += ["[keys]"]
        lines += comment(
            "\"vim\" adds h/← back, l/→ open, n/N next and previous match (row); they give way to a screen's own keys (h is hard in the review). Ctrl-D/Ctrl-U (half pages) and g/gg, G work in every list."
        )
        lines += ["# preset = \"default\""]
        var listed: Set<String> = []
        for context in contexts {
            for action in context.global + context.own where listed.insert(action.name).inserted {
                lines.append("# \"\(action.name)\" = \"\(action.key.configName)\"")
            }
        }
        lines += [""]
        lines += comment("A server you use, by name: tui --profile work. Never a password or a token here.")
        lines += [
            "# [profiles.work]",
            "# server = \"https://edugo.example.org\"",
            "# email = \"you@example.org\"",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}

/// Walks a parsed file, checking every key against what it may be, and finds the line of
/// each key for the problems it names (TOMLKit keeps no positions once parsed).
struct ConfigReader {
    let text: String
    let path: String
    let contexts: [KeyContext]

    static let topLevel: Set<String> = [
        "theme", "profiles", "wide_layout_columns", "keys", "language", "accessible", "review", "offline",
    ]
    static let reviewKeys: Set<String> = ["retention", "learning_steps", "relearning_steps"]
    static let themeKeys: Set<String> = Set(["name"] + Theme.roles.map(\.name))
    static let colourKeys: Set<String> = ["fg", "bg"]
    static let profileKeys: Set<String> = ["server", "email"]

    mutating func settings(from table: TOMLTable) throws(ConfigProblem) -> Settings {
        var settings = Settings.defaults
        try checkKnown(table, Self.topLevel, in: [])
        if let theme = table["theme"] {
            guard let themeTable = theme.table else { throw problem(["theme"], "must be a table: [theme]") }
            settings.theme = try readTheme(themeTable)
        }
        if let wide = table["wide_layout_columns"] {
            guard let columns = wide.int, columns == 0 || Settings.wideLayoutRange.contains(columns) else {
                let range = Settings.wideLayoutRange
                throw problem(
                    ["wide_layout_columns"],
                    "must be 0 (never) or a whole number of columns from \(range.lowerBound) to \(range.upperBound)")
            }
            settings.wideLayoutColumns = columns == 0 ? nil : columns
        }
        if let language = table["language"] {
            guard let code = language.string, let known = Language(identifier: code), known.code == code.lowercased() else {
                throw problem(["language"], "must be one of \(Language.all.map { "\"\($0.code)\"" }.joined(separator: ", "))")
            }
            settings.language = known
        }
        if let accessible = table["accessible"] {
            guard let flag = accessible.bool else { throw problem(["accessible"], "must be true or false") }
            settings.accessible = flag
        }
        if let review = table["review"] {
            guard let reviewTable = review.table else { throw problem(["review"], "must be a table: [review]") }
            settings.review = try readReview(reviewTable)
        }
        if let offline = table["offline"] { settings.offlineMegabytes = try readOffline(offline) }
        if let keys = table["keys"] {
            guard let keysTable = keys.table else { throw problem(["keys"], "must be a table: [keys]") }
            settings.keys = try readKeys(keysTable)
        }
        if let profiles = table["profiles"] {
            guard let profilesTable = profiles.table else { throw problem(["profiles"], "must be tables: [profiles.NAME]") }
            for name in profilesTable.keys.sorted() {
                settings.profiles[name] = try readProfile(profilesTable[name], named: name)
            }
        }
        return settings
    }

    private func readTheme(_ table: TOMLTable) throws(ConfigProblem) -> Theme {
        try checkKnown(table, Self.themeKeys, in: ["theme"])
        var theme = Theme.standard
        if let name = table["name"] {
            guard let text = name.string else { throw problem(["theme", "name"], "must be a string") }
            guard let named = Theme.named(text) else {
                throw problem(
                    ["theme", "name"],
                    "\(Self.quoted(text)) is not a theme: \(Theme.builtInNames.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
            theme = named
        }
        for role in Theme.roles {
            guard let value = table[role.name] else { continue }
            let key = ["theme", role.name]
            if let text = value.string {
                theme[role.style].foreground = try colour(text, key)
            } else if let colours = value.table {
                try checkKnown(colours, Self.colourKeys, in: key)
                if let foreground = colours["fg"] {
                    guard let text = foreground.string else { throw problem(key + ["fg"], "must be a string") }
                    theme[role.style].foreground = try colour(text, key + ["fg"])
                }
                if let background = colours["bg"] {
                    guard let text = background.string else { throw problem(key + ["bg"], "must be a string") }
                    theme[role.style].background = try colour(text, key + ["bg"])
                }
            } else {
                throw problem(key, "must be a colour (a string) or { fg = \"…\", bg = \"…\" }")
            }
        }
        return theme
    }

    /// `[keys]`: action names (dotted: quoted, or as nested tables) to a key or a list of
    /// keys; then no key may mean two things on one screen.
    private func readKeys(_ table: TOMLTable) throws(ConfigProblem) -> KeyBindings {
        var entries: [(name: [String], value: TOMLValue)] = []
        func collect(_ table: TOMLTable, _ prefix: [String]) {
            for key in table.keys.sorted() {
                guard let value = table[key]?.tomlValue else { continue }
                if let nested = value.table { collect(nested, prefix + [key]) } else { entries.append((prefix + [key], value)) }
            }
        }
        collect(table, [])
        let known = Set(contexts.flatMap { $0.own + $0.global }.map(\.name))
        var bindings = KeyBindings()
        for (name, value) in entries {
            let key = ["keys"] + name
            let action = name.joined(separator: ".")
            if action == "preset" {
                guard let name = value.string else { throw problem(key, "must be a string") }
                guard let preset = KeyPreset(rawValue: name) else {
                    throw problem(
                        key,
                        "\(Self.quoted(name)) is not a preset: \(KeyPreset.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or "))"
                    )
                }
                bindings.extra = preset.extra
                continue
            }
            guard known.contains(action) else {
                throw problem(key, "\(Self.quoted(action)) is not an action; tui config --print-defaults lists them")
            }
            let names: [String]
            if let one = value.string {
                names = [one]
            } else if let list = value.array, !list.isEmpty, list.allSatisfy({ $0.string != nil }) {
                names = list.compactMap(\.string)
            } else {
                throw problem(key, "must be a key (\"ctrl-f\") or a list of keys")
            }
            var keys: [Key] = []
            for text in names {
                guard let parsed = Key(configName: text) else {
                    // The names of keys are the file's own words, in every language.
                    let names =
                        "ctrl-a … ctrl-z, f1 … f12, enter, esc, space, tab, shift-tab, backspace, delete, up, down, left, right, pgup, "
                        + "pgdn, home, end"
                    throw problem(key, "\(Self.quoted(text)) is not a key: one character, or \(names)")
                }
                if !keys.contains(parsed) { keys.append(parsed) }
            }
            bindings.keys[action] = keys
        }
        for context in contexts {
            if let clash = context.conflict(in: bindings) {
                // The line of whichever of the two the file binds.
                let bound = bindings.keys[clash.second] != nil ? clash.second : clash.first
                throw problem(
                    ["keys"] + [bound],
                    "\(clash.key.configName) would mean both \(clash.first) and \(clash.second) on the \(Self.screen(context.name)) screen")
            }
        }
        return bindings
    }

    /// A screen's name in the learner's words (`catalog`: `del catálogo`).
    private static func screen(_ name: String) -> LocalizedText {
        LocalizedText(stringLiteral: name).context("screen")
    }

    private func readProfile(_ value: (any TOMLValueConvertible)?, named name: String) throws(ConfigProblem) -> ConnectionProfile {
        let key = ["profiles", name]
        guard let table = value?.table else { throw problem(key, "must be a table: [profiles.\(name)]") }
        try checkKnown(table, Self.profileKeys, in: key)
        guard let server = table["server"] else { throw problem(key, "needs a server = \"https://…\"") }
        guard let url = server.string else { throw problem(key + ["server"], "must be a string") }
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw problem(key + ["server"], "\(Self.quoted(url)) is not an http:// or https:// URL")
        }
        var email: String?
        if let value = table["email"] {
            guard let text = value.string else { throw problem(key + ["email"], "must be a string") }
            guard text.contains("@"), !text.contains(where: \.isWhitespace) else {
                throw problem(key + ["email"], "\(Self.quoted(text)) is not an email address")
            }
            email = text
        }
        return ConnectionProfile(server: url, email: email)
    }

    private func colour(_ text: String, _ key: [String]) throws(ConfigProblem) -> ThemeColour {
        guard let colour = ThemeColour(parsing: text) else {
            throw problem(key, "\(Self.quoted(text)) is not a colour: a name such as \"blue\", 0-255, \"#rrggbb\" or \"default\"")
        }
        return colour
    }

    /// Refuses the first key of `table` that is not one of `known`.
    func checkKnown(_ table: TOMLTable, _ known: Set<String>, in parent: [String]) throws(ConfigProblem) {
        if let unknown = table.keys.sorted().first(where: { !known.contains($0) }) {
            throw problem(parent + [unknown], "is not a setting here; known: \(known.sorted().joined(separator: ", "))")
        }
    }

    func problem(_ key: [String], _ reason: LocalizedText) -> ConfigProblem {
        ConfigProblem(path: path, line: Self.line(of: key, in: text), key: key.joined(separator: "."), reason: reason)
    }

    static func quoted(_ text: String) -> String {
        "\"" + TerminalText.sanitize(String(text.prefix(80))) + "\""
    }

    /// A theme entry as the default file shows it.
    static func describe(_ entry: ThemeEntry) -> String {
        func name(_ colour: ThemeColour) -> String {
            switch colour {
            case .terminal: return "\"default\""
            case .indexed(let index):
                let name = ThemeColour.names.filter { $0.value == index && !["gray", "grey"].contains($0.key) }.map(\.key).min()
                return "\"\(name ?? String(index))\""
            case .rgb(let red, let green, let blue): return "\"#" + [red, green, blue].map { String(format: "%02x", $0) }.joined() + "\""
            }
        }
        guard entry.background != .terminal else { return name(entry.foreground) }
        return "{ fg = \(name(entry.foreground)), bg = \(name(entry.background)) }"
    }

    /// The line (from 1) where `key` is set: the `[table]` header that opens it or the
    /// `name =` line inside it, dotted keys and quoted names understood. `nil` if not found.
    static func line(of key: [String], in text: String) -> Int? {
        var table: [String] = []
        var best: Int?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                let inner = line.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: "]").first.map(String.init) ?? ""
                table = path(inner)
                if table == key { return index + 1 }
                if best == nil, key.starts(with: table), !table.isEmpty { best = index + 1 }
                continue
            }
            guard let equals = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
            let full = table + path(String(line[..<equals]))
            if full == key || key.starts(with: full) && full.count > table.count { return index + 1 }
        }
        return best
    }

    /// `profiles."my work".server` as its parts.
    private static func path(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current.trimmingCharacters(in: .whitespaces))
        return parts.filter { !$0.isEmpty }
    }
}
