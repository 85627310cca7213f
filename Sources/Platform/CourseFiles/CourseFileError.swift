import SharedKernel

/// What is wrong with a course JSON file, naming the entry and the field.
public enum CourseFileError: Error, Hashable, Sendable, CustomStringConvertible {
    case notJSON(line: Int, column: Int, reason: String)
    case wrongShape
    case unknownTopLevelField(String)
    /// `index` counts from 0, as in the file's array.
    case invalidField(index: Int, id: String?, field: String, reason: LocalizedText)
    case unknownField(index: Int, id: String?, field: String)
    case duplicateID(index: Int, id: String)
    /// A key given twice in one object; `index` nil for the file's top-level object.
    case duplicateKey(index: Int?, id: String?, field: String)
    case unknownPrerequisite(index: Int, id: String, prerequisiteID: String)
    case prerequisiteCycle(index: Int, id: String, cycle: [String])
    case cannotRead(path: String, reason: String)
    case tooLarge(path: String, limit: Int)

    public var description: String { text.english }

    /// What is wrong, to be written in a language (the JSON decoder's and the system's own
    /// words stay as they come).
    public var text: LocalizedText {
        switch self {
        case .notJSON(let line, let column, let reason):
            return "the file is not valid JSON: line \(line), column \(column): \(reason)"
        case .wrongShape:
            return "the file must hold an array of courses or an object with a \"courses\" array"
        case .unknownTopLevelField(let field):
            return "unknown field \(Self.quote(field)) next to \"courses\""
        case .invalidField(let index, let id, let field, let reason):
            return "\(Self.entry(index, id)): field \(Self.quote(field)) \(reason)"
        case .unknownField(let index, let id, let field):
            return "\(Self.entry(index, id)): unknown field \(Self.quote(field))"
        case .duplicateID(let index, let id):
            return "\(Self.entry(index, id)): field \"id\" repeats an id used earlier in the file"
        case .duplicateKey(let index?, let id, let field):
            return "\(Self.entry(index, id)): field \(Self.quote(field)) is given twice"
        case .duplicateKey(nil, _, let field):
            return "the file's top-level object gives field \(Self.quote(field)) twice"
        case .unknownPrerequisite(let index, let id, let prerequisiteID):
            return "\(Self.entry(index, id)): field \"prerequisite_id\" names \(Self.quote(prerequisiteID)), which is not a known course"
        case .prerequisiteCycle(let index, let id, let cycle):
            return
                "\(Self.entry(index, id)): field \"prerequisite_id\": prerequisites form a cycle: \(cycle.map(Self.plain).joined(separator: " → "))"
        case .cannotRead(let path, let reason):
            return "cannot read \(Self.plain(path)): \(reason)"
        case .tooLarge(let path, let limit):
            return "cannot read \(Self.plain(path)): the file is larger than \(limit / (1 << 20)) MiB, the most an import reads"
        }
    }

    private static func entry(_ index: Int, _ id: String?) -> LocalizedText {
        id.map { "entry \(index) (id \(quote($0)))" } ?? "entry \(index)"
    }

    /// Text from the file, in quotes, with anything unprintable written as an escape, and cut:
    /// an error message must neither drive the terminal nor hide what was wrong.
    static func quote(_ text: String) -> String {
        "\"" + plain(text) + "\""
    }

    static func plain(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(80) {
            let invisible = scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar.properties.generalCategory == .format
            if invisible {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else if scalar == "\"" || scalar == "\\" {
                result += "\\" + String(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > 80 ? result + "…" : result
    }
}
