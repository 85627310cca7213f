import Foundation
import RemoteStore
import Settings
import SharedKernel

/// What the command line decided, handed to the composition root.
public struct AppConfiguration: Sendable {
    /// How much goes to the log file.
    public enum LogLevel: String, CaseIterable, Sendable {
        case trace, debug, info, notice, warning, error, critical
    }

    public var dataDirectory: URL
    /// `--server URL`: remote mode, the EduGo server as the store; nil for the local database.
    public var server: URL?
    public var conditions: DevelopmentConditions
    public var logLevel: LogLevel
    /// The process environment (TERM, NO_COLOR, ESCDELAY).
    public var environment: [String: String]
    /// `--today YYYY-MM-DD`: the day the app's calendar starts on (reviews, streaks).
    var startDay: LearnerDay?
    /// What the config file sets (`ConfigCommand.choose`), the defaults without one.
    public var settings: Settings
    /// The config file in force, watched while the app runs; `explicit` when the user named it.
    public var configFile: (path: String, explicit: Bool)?
    /// The email the sign-in form starts with (`--profile`'s).
    public var signInEmail: String?
    /// `--language`, as typed: it comes before the locale and the config file.
    public var languageOption: String?
    /// `--accessible`; the config file's `accessible = true` does the same.
    public var accessibleOption: Bool
    /// The accessible mode: `--accessible`, or the config file's `accessible = true`.
    public var accessible: Bool { accessibleOption || settings.accessible }

    /// The UI's language: `--language`, else the config file's, else the locale (`Language.chosen`).
    public var language: Language { Self.language(option: languageOption, environment: environment, settings: settings) }

    /// Why `--language CODE` cannot be used, if it cannot.
    public static func languageProblem(_ code: String) -> String? {
        guard Language(identifier: code)?.code != code.lowercased() else { return nil }
        return EduGoApp.commandLineTexts("--language needs one of \(Language.all.map(\.code).joined(separator: ", ")) (got \"\(code)\")")
    }

    static func language(option: String?, environment: [String: String], settings: Settings) -> Language {
        Language.chosen(option: option, environment: environment, configured: settings.language?.code)
    }

    /// How long a call to the server may take (10 s). `EDUGO_REMOTE_TIME_LIMIT_S` sets it in
    /// whole seconds, for the journeys that hold a stand-in server's answer for as long as they
    /// look at the screen: a loaded machine must not turn their hold into a timeout.
    var remoteTimeLimit: Duration {
        guard let seconds = environment["EDUGO_REMOTE_TIME_LIMIT_S"].flatMap(Int.init), seconds > 0 else {
            return RemoteStore.defaultTimeLimit
        }
        return .seconds(seconds)
    }

    /// `today`: `--today`'s `YYYY-MM-DD`, checked first with `isDay`.
    public init(
        dataDirectory: URL, server: URL? = nil, conditions: DevelopmentConditions, logLevel: LogLevel, environment: [String: String],
        today: String? = nil, settings: Settings = .defaults, configFile: (path: String, explicit: Bool)? = nil,
        signInEmail: String? = nil, languageOption: String? = nil, accessible: Bool = false
    ) {
        self.signInEmail = signInEmail
        self.languageOption = languageOption
        self.accessibleOption = accessible
        self.dataDirectory = dataDirectory
        self.server = server
        self.conditions = conditions
        self.logLevel = logLevel
        self.environment = environment
        self.startDay = today.flatMap(LearnerDay.init(iso:))
        self.settings = settings
        self.configFile = configFile
    }

    /// Whether `text` is a day `--today` takes: `YYYY-MM-DD`, a day that exists.
    public static func isDay(_ text: String) -> Bool {
        LearnerDay(iso: text) != nil
    }
}

/// The learner's calendar: today where they are, by the wall clock and the time zone, or,
/// with `--today`, counted from that day as the days go by.
struct LearnerCalendar: Sendable {
    private let start: LearnerDay?
    private let began: Date
    private let now: @Sendable () -> Date
    private let secondsFromGMT: @Sendable () -> Int

    init(
        start: LearnerDay?, now: @escaping @Sendable () -> Date = { Date() },
        secondsFromGMT: @escaping @Sendable () -> Int = { TimeZone.current.secondsFromGMT() }
    ) {
        self.start = start
        self.now = now
        self.secondsFromGMT = secondsFromGMT
        began = now()
    }

    var today: LearnerDay {
        studyTime.day
    }

    /// Now, where the learner is: with `--today`, the wall clock's time of day on that day (and
    /// the days after it as they go by), so cards in their steps come back on the minute.
    var studyTime: StudyTime {
        let offset = secondsFromGMT()
        let real = StudyTime(now: now(), secondsFromGMT: offset)
        guard let start else { return real }
        let shift = start.number - LearnerDay(began, secondsFromGMT: offset).number
        return real.adding(seconds: shift * 86_400)
    }
}
