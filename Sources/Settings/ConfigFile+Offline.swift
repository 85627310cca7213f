import Presentation
import SharedKernel
import TOMLKit

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
