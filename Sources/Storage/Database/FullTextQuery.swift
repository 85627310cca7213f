/// Turns what a person types into an FTS5 query: every word must start a word of the title,
/// the instructor or a tag. The tokenizer folds case and accents on both sides.
enum FullTextQuery {
    enum Parsed: Equatable {
        /// Nothing but spaces: the whole catalog.
        case everything
        /// Something typed, but no letter or digit to look for: nothing matches.
        case nothing
        case match(String)
    }

    static func parse(_ query: String) -> Parsed {
        if query.allSatisfy(\.isWhitespace) { return .everything }
        // Words are runs of letters and digits, as the unicode61 tokenizer splits them, so
        // no FTS5 syntax (quotes, `*`, `-`, `:`, parentheses) can reach the engine.
        let words = query.split { !($0.isLetter || $0.isNumber) }
        guard !words.isEmpty else { return .nothing }
        return .match(words.map { "\"\($0)\"*" }.joined(separator: " "))
    }
}
