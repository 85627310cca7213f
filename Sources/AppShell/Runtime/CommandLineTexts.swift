import Foundation
import Settings
import SharedKernel

extension EduGoApp {
    /// The words of `tui`'s own command line (its help, its refusals), in the language the
    /// command line, the locale or the config file names. Worked out once, when first asked:
    /// the help is written before the options are parsed, so `--language` and `--config` are
    /// read here from the arguments themselves. The config file is read for it only when
    /// neither `--language` nor the locale names a language (ArgumentParser asks for these
    /// words on every start, to build its help).
    static let commandLineTexts: Texts = {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let environment = ProcessInfo.processInfo.environment
        if let named = Language.named(option: ConfigCommand.option("--language", in: arguments), environment: environment) {
            return Texts(named)
        }
        let choice = try? ConfigCommand.choose(option: ConfigCommand.configOption(in: arguments), profile: nil, environment: environment)
            .get()
        return Texts(choice?.settings.language ?? .english)
    }()

    /// `english` (with `%@` where each of `arguments` goes) in the command line's language.
    public static func text(_ english: String, _ arguments: String...) -> String {
        commandLineTexts(LocalizedText(key: english, arguments: arguments.map { .verbatim($0) }))
    }
}
