import Foundation
import SharedKernel
import Testing

/// A catalog key is one meaning: the same English words with a date in one place and a title
/// in another (`Completed %@`) cannot both be translated right (`Completado el Swift
/// Fundamentals`). Read from the sources: every one-line string literal with interpolations
/// whose key the catalog has, and what kind each of its values is (`day:`, `plural:`,
/// `verbatim:`, or a plain value).
@Suite("Catalog keys: one meaning each")
struct TextKeyUsesTests {
    /// A literal's catalog key and the kind of each of its values.
    struct Use: Hashable {
        let key: String
        let kinds: [String]
        let place: String
    }

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized

    @Test("no key is used with a value of one kind in one place and another kind elsewhere")
    func oneKindPerPlace() throws {
        let english = Texts.entries(of: .english)
        var uses: [String: [Use]] = [:]
        let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift", !file.path.contains("/EduGoAPI/Generated/") else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                // `%@` alone is a value shown as it is, never looked up.
                for (key, kinds) in Self.literals(in: Substring(line)) where english[key] != nil && key != "%@" {
                    uses[key, default: []].append(Use(key: key, kinds: kinds, place: "\(file.lastPathComponent):\(number + 1)"))
                }
            }
        }
        #expect(uses.count > 50, "the scan finds the app's texts: \(uses.count)")
        for (key, found) in uses {
            let kinds = Set(found.map(\.kinds))
            #expect(kinds.count == 1, "\(key): \(found.map { "\($0.place) \($0.kinds)" })")
        }
    }

    @Test("the scan tells a date from a title in the same words")
    func scanSeesKinds() {
        let found = Self.literals(in: #"x("Completed \(day: date)"), y("Completed \(course.title)", "50%")"#)
        #expect(found.map(\.0) == ["Completed %@", "Completed %@"])
        #expect(found.map(\.1) == [["day"], ["plain"]])
    }

    /// Each `"…\(…)…"` literal of a line as its key (`%@` for each value, `%%` for a `%`) and
    /// the kinds of its values. Raw and multi-line literals are left out.
    static func literals(in line: Substring) -> [(String, [String])] {
        var found: [(String, [String])] = []
        var index = line.startIndex
        while let quote = line[index...].firstIndex(of: "\"") {
            if quote > line.startIndex, line[line.index(before: quote)] == "#" { return found }
            var key = ""
            var kinds: [String] = []
            var position = line.index(after: quote)
            var closed = false
            while position < line.endIndex {
                let character = line[position]
                if character == "\"" {
                    closed = true
                    break
                }
                if character == "\\", line.index(after: position) < line.endIndex {
                    let next = line[line.index(after: position)]
                    if next == "(" {
                        var depth = 1
                        var end = line.index(position, offsetBy: 2)
                        let start = end
                        while end < line.endIndex, depth > 0 {
                            if line[end] == "(" { depth += 1 }
                            if line[end] == ")" { depth -= 1 }
                            if depth > 0 { end = line.index(after: end) }
                        }
                        let inside = line[start..<min(end, line.endIndex)]
                        let label = inside.prefix { $0.isLetter }
                        // A text's plain value is shown as it is, as `verbatim:` says outright.
                        let labelled = inside.dropFirst(label.count).hasPrefix(":") && label != "verbatim"
                        kinds.append(labelled ? String(label) : "plain")
                        key += "%@"
                        position = end < line.endIndex ? line.index(after: end) : end
                        continue
                    }
                    key.append(next)
                    position = line.index(position, offsetBy: 2)
                    continue
                }
                key += character == "%" ? "%%" : String(character)
                position = line.index(after: position)
            }
            guard closed else { return found }
            if !kinds.isEmpty { found.append((key, kinds)) }
            index = line.index(after: position)
        }
        return found
    }
}
