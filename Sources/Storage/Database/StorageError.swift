/// Why the database could not be opened. Each case names the path, so the message is
/// enough for a person to find and fix the file.
public enum StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    case cannotCreateDirectory(path: String, reason: String)
    case notADatabase(path: String)
    case notAnEduGoDatabase(path: String)
    case newerSchema(path: String)
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            "cannot create the data directory \(path): \(reason)"
        case .notADatabase(let path):
            "cannot open \(path): the file is not an SQLite database (it was left untouched)"
        case .notAnEduGoDatabase(let path):
            "cannot open \(path): the database was not made by EduGo Terminal (it was left untouched)"
        case .newerSchema(let path):
            "cannot open \(path): the database was written by a newer version of EduGo Terminal (it was left untouched)"
        case .cannotOpen(let path, let reason):
            "cannot open \(path): \(reason)"
        }
    }
}
