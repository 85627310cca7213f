import Foundation

/// Why a profile name was refused; the sentence is shown under the field.
public enum ProfileNameRejection: Error, Hashable, Sendable {
    case empty
    case tooLong(maximum: Int)
    case invalidCharacters

    public var message: LocalizedText {
        switch self {
        case .empty: "Enter a name"
        case .tooLong(let maximum): "Use at most \(maximum) characters"
        case .invalidCharacters: "Use letters, spaces, apostrophes, hyphens and dots only"
        }
    }
}

/// SPEC's profile name rules: trimmed; 1 to 60 characters (and 240 scalars); letters of any
/// script, spaces, `'`, `-` and `.`; no control characters.
public enum ProfileName {
    public static let maximumLength = 60
    /// Characters may be made of several scalars (a letter and its marks), but not of
    /// thousands: a name's scalars are bounded too, four a character on average.
    public static let maximumScalars = 4 * maximumLength

    /// The name to store, or why not.
    public static func validate(_ raw: String) -> Result<String, ProfileNameRejection> {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return .failure(.empty) }
        guard name.count <= maximumLength, name.unicodeScalars.count <= maximumScalars else {
            return .failure(.tooLong(maximum: maximumLength))
        }
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || scalar.properties.generalCategory == .nonspacingMark
                || scalar == " " || scalar == "'" || scalar == "-" || scalar == "."
        }
        return allowed ? .success(name) : .failure(.invalidCharacters)
    }

    /// The name to store, or `.invalidName` with why not (a store's operation refuses it so).
    public static func checked(_ raw: String) throws(AppError) -> String {
        switch validate(raw) {
        case .success(let name): return name
        case .failure(let rejection): throw .invalidName(rejection)
        }
    }
}
