import Presentation
import SharedKernel
import TOMLKit

/// What the config file says about studying: `[review]` and `[offline]`.
extension ConfigFile {
    /// `[offline]` in the default file: its table, the comment and the default.
    static func offlineLines(_ comment: (LocalizedText) -> [String]) -> [String] {
        ["[offline]"]
            + comment(
                "Remote mode saves the enrolled courses' lessons on this terminal for reading offline, up to this many megabytes; 0: none.")
            + ["# max_megabytes = 200", ""]
    }
}

extension ConfigReader {
    /// `[review]`: each value checked alone, then together as the scheduler takes them.
    func readReview(_ table: TOMLTable) throws(ConfigProblem) -> ReviewSettings {
        try checkKnown(table, Self.reviewKeys, in: ["review"])
        let defaults = ReviewSettings.default
        var retention = defaults.retention
        if let value = table["retention"] {
            guard let number = value.double ?? value.int.map(Double.init) else {
                throw problem(["review", "retention"], "must be a number from 0.70 to 0.97")
            }
            retention = number
        }
        func steps(_ name: String, _ fallback: [Int]) throws(ConfigProblem) -> [Int] {
            guard let value = table[name] else { return fallback }
            guard let text = value.string, let steps = StepsText.seconds(text) else {
                throw problem(["review", name], "must be steps in a string, like \"1m 10m\" (s, m, h or d each), or \"\" for none")
            }
            return steps
        }
        let learning = try steps("learning_steps", defaults.learningSteps)
        let relearning = try steps("relearning_steps", defaults.relearningSteps)
        do {
            return try ReviewSettings(retention: retention, learningSteps: learning, relearningSteps: relearning)
        } catch {
            let key =
                switch error {
                case .retention: "retention"
                case .tooManySteps(.learning), .stepOutOfRange(.learning): "learning_steps"
                case .tooManySteps(.relearning), .stepOutOfRange(.relearning): "relearning_steps"
                }
            throw problem(["review", key], error.message)
        }
    }

    /// `[offline]`: `max_megabytes`, a whole number in `Settings.offlineMegabytesRange`.
    func readOffline(_ value: any TOMLValueConvertible) throws(ConfigProblem) -> Int {
        guard let table = value.table else { throw problem(["offline"], "must be a table: [offline]") }
        try checkKnown(table, ["max_megabytes"], in: ["offline"])
        guard let megabytes = table["max_megabytes"] else { return Settings.defaults.offlineMegabytes }
        let range = Settings.offlineMegabytesRange
        guard let whole = megabytes.int, range.contains(whole) else {
            throw problem(["offline", "max_megabytes"], "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return whole
    }
}
