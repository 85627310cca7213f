/// What is wrong with a course JSON file, naming the entry and the field.
public enum CourseFileError: Error, Hashable, Sendable, CustomStringConvertible {
    case notJSON(reason: String)
    case wrongShape
    /// `index` counts from 0, as in the file's array.
    case invalidField(index: Int, id: String?, field: String, reason: String)
    case duplicateID(index: Int, id: String)
    case unknownPrerequisite(index: Int, id: String, prerequisiteID: String)

    public var description: String {
        switch self {
        case .notJSON(let reason):
            return "the file is not valid JSON: \(reason)"
        case .wrongShape:
            return "the file must hold an array of courses or an object with a \"courses\" array"
        case .invalidField(let index, let id, let field, let reason):
            return "\(Self.entry(index, id)): field \"\(field)\" \(reason)"
        case .duplicateID(let index, let id):
            return "\(Self.entry(index, id)): field \"id\" repeats an id used earlier in the file"
        case .unknownPrerequisite(let index, let id, let prerequisiteID):
            return "\(Self.entry(index, id)): field \"prerequisite_id\" names \"\(prerequisiteID)\", which is not a known course"
        }
    }

    private static func entry(_ index: Int, _ id: String?) -> String {
        id.map { "entry \(index) (id \"\($0)\")" } ?? "entry \(index)"
    }
}
