/// Steps as the config file writes them, Anki's way: `"1m 10m"`, each a whole number and a
/// unit (s, m, h, d), separated by spaces; `""` for none.
enum StepsText {
    static let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]

    /// The seconds of each step, nil unless every word is a number and a unit (the range of
    /// each is `ReviewSettings`'s to check).
    static func seconds(_ text: String) -> [Int]? {
        var steps: [Int] = []
        for word in text.split(separator: " ") {
            guard let unit = word.last.flatMap({ units[$0] }), word.count <= 7,
                let number = Int(word.dropLast()), number >= 0, word.dropLast().allSatisfy(\.isASCII)
            else { return nil }
            steps.append(number * unit)
        }
        return steps
    }
}
