import Foundation
import Settings
import SharedKernel

/// The config file from the command line: which one is in force, checking one, and the
/// default text; `tui config` and the app's start share it.
public enum ConfigCommand {
    /// What the config file decides for a start: its settings, and the server of the
    /// `--profile` asked for.
    public struct Choice: Sendable {
        public let settings: Settings
        public let profileServer: String?
        /// `[profiles.NAME] email`: the sign-in form starts with it.
        public let profileEmail: String?
        /// The file read (or that would be), to watch for edits.
        public let path: String
        public let explicit: Bool
    }

    /// The settings in force (the file `--config`, `EDUGO_CONFIG` or the default place
    /// names) and `--profile`'s server, or why they cannot be used: the app then exits 1
    /// with the message (`path:line: key: reason`).
    public static func choose(option: String?, profile: String?, environment: [String: String]) -> Result<Choice, ConfigFailure> {
        let (path, explicit) = ConfigFile.location(option: option, environment: environment, home: home(environment))
        do throws(ConfigProblem) {
            let settings = try ConfigFile.load(path: path, explicit: explicit, contexts: GlobalKeys.contexts)
            let server = try profile.map { name throws(ConfigProblem) in try profileServer(name, in: settings).get() }
            let email = profile.flatMap { settings.profiles[$0]?.email }
            return .success(Choice(settings: settings, profileServer: server, profileEmail: email, path: path, explicit: explicit))
        } catch {
            return .failure(ConfigFailure(text: error.text))
        }
    }

    /// `--config PATH` or `--config=PATH` among command-line arguments, before a `--`.
    public static func configOption(in arguments: [String]) -> String? {
        option("--config", in: arguments)
    }

    /// The value of `name` (`--language es` or `--language=es`) among `arguments`, read before
    /// they are parsed.
    static func option(_ name: String, in arguments: [String]) -> String? {
        var rest = arguments[...]
        while let argument = rest.popFirst(), argument != "--" {
            if argument == name { return rest.first }
            if argument.hasPrefix(name + "=") { return String(argument.dropFirst(name.count + 1)) }
        }
        return nil
    }

    /// Why the config file cannot be used, as printed.
    public struct ConfigFailure: Error, Sendable {
        let text: LocalizedText
        /// In the command line's language (read when printed: working that language out
        /// reads the config file itself).
        public var message: String { EduGoApp.commandLineTexts(text) }
    }

    /// `tui config --check [PATH]`: 0 and what was checked, or 1 and the problem.
    public static func check(path: String?, option: String?, environment: [String: String]) -> (code: Int32, message: String) {
        let (file, explicit) =
            path.map { ($0, true) } ?? ConfigFile.location(option: option, environment: environment, home: home(environment))
        do throws(ConfigProblem) {
            guard explicit || FileManager.default.fileExists(atPath: file) else {
                return (0, EduGoApp.commandLineTexts("\(file): no file; the defaults are in force"))
            }
            _ = try ConfigFile.load(path: file, explicit: true, contexts: GlobalKeys.contexts)
            return (0, EduGoApp.commandLineTexts("\(file): OK"))
        } catch {
            return (1, EduGoApp.commandLineTexts(error.text))
        }
    }

    /// `tui config --print-defaults`: every setting, commented, as a file to start from.
    public static var defaultText: String { ConfigFile.defaultText(contexts: GlobalKeys.contexts, texts: EduGoApp.commandLineTexts) }

    /// The server of `[profiles.NAME]`, or why there is none.
    static func profileServer(_ name: String, in settings: Settings) -> Result<String, ConfigProblem> {
        guard let profile = settings.profiles[name] else {
            let known = settings.profiles.keys.sorted()
            return .failure(
                ConfigProblem(
                    path: "--profile", line: nil, key: nil,
                    reason: "no [profiles.\(name)] in the config file" + (known.isEmpty ? "" : "; it has \(known.joined(separator: ", "))"))
            )
        }
        return .success(profile.server)
    }

    private static func home(_ environment: [String: String]) -> String {
        environment["HOME"] ?? NSHomeDirectory()
    }
}
