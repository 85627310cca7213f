import Presentation
import SharedKernel
import TerminalUI

/// What the config file sets, with every default filled in.
public struct Settings: Hashable, Sendable {
    /// The colours of the UI: a built-in theme with the file's changes.
    public var theme: Theme
    /// Named servers (`[profiles.NAME]`), for `tui --profile NAME`.
    public var profiles: [String: ConnectionProfile]
    /// From this many columns the catalog shows the selected course beside the list
    /// (`wide_layout_columns`; 0 in the file: never).
    public var wideLayoutColumns: Int?
    /// The keys bound to actions in place of their defaults (`[keys]`).
    public var keys: KeyBindings
    /// `language = "es"`: the UI's language unless `--language` names one; it comes before the
    /// locale (`LC_ALL`, `LC_MESSAGES`, `LANG`), which often names English only by default.
    /// Nil: the file names none.
    public var language: Language?
    /// `accessible = true`: the accessible mode, as `--accessible`.
    public var accessible: Bool
    /// `[review]`: the desired retention and the same-day steps of the scheduler.
    public var review: ReviewSettings
    /// `[offline] max_megabytes`: how much of the enrolled courses' lessons remote mode saves
    /// on the terminal for reading offline (0: none).
    public var offlineMegabytes: Int

    public init(
        theme: Theme = .standard, profiles: [String: ConnectionProfile] = [:], wideLayoutColumns: Int? = 140,
        keys: KeyBindings = .none, language: Language? = nil, accessible: Bool = false, review: ReviewSettings = .default,
        offlineMegabytes: Int = 200
    ) {
        self.offlineMegabytes = offlineMegabytes
        self.theme = theme
        self.profiles = profiles
        self.wideLayoutColumns = wideLayoutColumns
        self.keys = keys
        self.language = language
        self.accessible = accessible
        self.review = review
    }

    /// The columns `wide_layout_columns` may name (0 aside): below 100 the list would be cramped.
    public static let wideLayoutRange = 100...10_000
    /// What `[offline] max_megabytes` may say.
    public static let offlineMegabytesRange = 0...100_000

    public static let defaults = Settings()
}

/// A server the learner uses, by name: its URL and the email to sign in with. Never a
/// password or a token (tokens stay in the data directory).
public struct ConnectionProfile: Hashable, Sendable {
    public var server: String
    public var email: String?

    public init(server: String, email: String? = nil) {
        self.server = server
        self.email = email
    }
}

/// Why a config file is refused: where (its line, when it has one) and which key.
public struct ConfigProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var key: String?
    /// In the words of whoever reads it (the command line's, the footer's language).
    public var reason: LocalizedText

    public init(path: String, line: Int?, key: String?, reason: LocalizedText) {
        self.path = path
        self.line = line
        self.key = key
        self.reason = reason
    }

    /// `/home/ada/.config/edugo/config.toml:12: theme.accent: "purpel" is not a colour …`, as
    /// compilers say it.
    public var description: String { text.english }

    /// The whole problem, to be written in a language: `PATH:LINE: KEY: reason`.
    public var text: LocalizedText { text(naming: path) }

    /// The same with the file's name alone, for the footer's one line.
    public var brief: LocalizedText {
        text(naming: path.split(separator: "/").last.map(String.init) ?? path)
    }

    private func text(naming file: String) -> LocalizedText {
        let place = line.map { "\(file):\($0)" } ?? file
        return .verbatim("\(place): " + (key.map { "\($0): " } ?? "")) + reason
    }
}
