import Foundation
import Settings
import SharedKernel

extension EduGoApp {
    /// The words of `tui`'s own command line (its help, its refusals), in the language the
    /// command line, the locale or the config file names. Worked out once, when first asked:
    /// the help is written before the options are parsed, so `--language` and `--config` are
    /// read here from the arguments themselves.
    static let commandLineTexts: Texts = {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let environment = ProcessInfo.processInfo.environment
        let choice = try? ConfigCommand.choose(option: ConfigCommand.configOption(in: arguments), profile: nil, environment: environment)
            .get()
        let language = AppConfiguration.language(
            option: ConfigCommand.option("--language", in: arguments), environment: environment, settings: choice?.settings ?? .defaults)
        return Texts(language)
    }()

    /// `english` (with `%@` where each of `arguments` goes) in the command line's language.
    public static func text(_ english: String, _ arguments: String...) -> String {
        commandLineTexts(LocalizedText(key: english, arguments: arguments.map { .verbatim($0) }))
    }
}
