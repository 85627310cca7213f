import SharedKernel

/// Matching as fzf does it, simply: the query's characters in order within the text, case
/// and accents ignored, scored so a prefix beats a word's start, which beats letters found
/// apart.
public enum FuzzyMatch {
    /// The score of `text` for `query` (higher is better), or `nil` when it does not match.
    /// An empty query matches everything equally.
    public static func score(_ query: String, in text: String) -> Int? {
        let needle = Array(TextFolding.fold(query).filter { !$0.isWhitespace })
        guard !needle.isEmpty else { return 0 }
        let haystack = Array(TextFolding.fold(text))
        if haystack.starts(with: needle) { return 10_000 - haystack.count }
        // From each place the first letter is found, the letters taken as they come; the best.
        var best: Int?
        for start in haystack.indices where haystack[start] == needle[0] {
            guard let score = greedy(needle, in: haystack, from: start) else { break }
            best = max(best ?? score, score)
        }
        return best.map { $0 * 10 - haystack.count / 4 }
    }

    /// The score of finding `needle` in order from `start`: a word's start counts most, a
    /// letter right after the one before next; `nil` when it is not all there.
    private static func greedy(_ needle: [Character], in haystack: [Character], from start: Int) -> Int? {
        var score = 0
        var index = 0
        var previous = -2
        for position in start..<haystack.count where index < needle.count && haystack[position] == needle[index] {
            let wordStart = position == 0 || !haystack[position - 1].isLetter && !haystack[position - 1].isNumber
            score += wordStart ? 30 : (position == previous + 1 ? 15 : 1)
            previous = position
            index += 1
        }
        return index == needle.count ? score : nil
    }

    /// `items` that match `query`, best first (ties keep their order).
    public static func filter<Item>(_ items: [Item], query: String, text: (Item) -> String) -> [Item] {
        items.enumerated().compactMap { offset, item in score(query, in: text(item)).map { (item, $0, offset) } }
            .sorted { ($0.1, -$0.2) > ($1.1, -$1.2) }
            .map(\.0)
    }
}
