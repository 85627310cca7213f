import Foundation
import Settings
import SharedKernel
import TerminalUI

extension EduGoApp {
    /// The words of `tui`'s own command line (its help, its refusals), in the language
    /// `--language`, the config file or the locale names, in that order (`Language.chosen`).
    /// Worked out once, when first asked: the help is written before the options are parsed,
    /// so `--language` and `--config` are read here from the arguments themselves; the config
    /// file only when `--language` names no language.
    static let commandLineTexts: Texts = {
        let option = ConfigCommand.option("--language", in: Array(CommandLine.arguments.dropFirst()))
        if let option, let named = Language(identifier: option) { return Texts(named) }
        return Texts(
            Language.chosen(option: nil, environment: ProcessInfo.processInfo.environment, configured: commandLineSettings?.language?.code))
    }()

    /// The config file `--config` or the usual place names, read once for the subcommands
    /// (the app reads it with the rest of its settings); nil when there is none or it is bad.
    static let commandLineSettings: Settings? = {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let choice = try? ConfigCommand.choose(
            option: ConfigCommand.configOption(in: arguments), profile: nil, environment: ProcessInfo.processInfo.environment
        ).get()
        return choice?.settings
    }()

    /// `english` (with `%@` where each of `arguments` goes) in the command line's language.
    public static func text(_ english: String, _ arguments: String...) -> String {
        commandLineTexts(LocalizedText(key: english, arguments: arguments.map { .verbatim($0) }))
    }

    /// ArgumentParser's own words in the help and the errors it writes, which it has in English
    /// only. Each is replaced whole, the longer ones first where one holds another.
    static let parserPhrases = [
        "OVERVIEW:", "USAGE:", "ARGUMENTS:", "OPTIONS:", "SUBCOMMANDS:", "Show help information.", "Show the version.",
        "' for detailed help.", "' for more information.", "See '", "<subcommand>", "Usage: ", "Help: ", "Unknown option",
        "Missing value for", "Missing expected argument", "Unexpected argument",
    ]

    /// A message ArgumentParser wrote (the help, an error) in the command line's language,
    /// within 80 columns: a translated heading lengthens the overview's first line, and an
    /// error is one line however long.
    public static func parserText(_ message: String) -> String {
        let translated =
            commandLineTexts.language == .english
            ? message
            : parserPhrases.reduce(message) { text, phrase in
                text.replacingOccurrences(of: phrase, with: commandLineTexts(LocalizedText(key: phrase)))
            }
        return rewrapped(translated, width: 80)
    }

    /// The overview's paragraph and the `Error: ` lines wrapped again where they run past
    /// `width`; the rest (the usage line, the options' columns) as ArgumentParser laid it out.
    static func rewrapped(_ text: String, width: Int) -> String {
        var lines = text.components(separatedBy: "\n")
        let overview = commandLineTexts(LocalizedText(key: "OVERVIEW:")) + " "
        if let first = lines.firstIndex(where: { $0.hasPrefix(overview) }), lines[first].displayWidth > width {
            let end = lines[first...].firstIndex(where: \.isEmpty) ?? lines.endIndex
            let paragraph = lines[first..<end].joined(separator: " ")
            lines.replaceSubrange(first..<end, with: TextWrapper.wrap(paragraph, width: width))
        }
        let error = "Error: "
        lines = lines.flatMap { line -> [String] in
            guard line.hasPrefix(error), line.displayWidth > width else { return [line] }
            let indent = String(repeating: " ", count: error.count)
            let wrapped = TextWrapper.wrap(String(line.dropFirst(error.count)), width: width - error.count)
            return wrapped.enumerated().map { ($0.offset == 0 ? error : indent) + $0.element }
        }
        return lines.joined(separator: "\n")
    }
}
