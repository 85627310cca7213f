import Foundation

/// The database identity of a learner account.
public struct UserID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    public var description: String { String(rawValue) }
}

/// What an account may do on the platform.
public enum UserRole: String, Hashable, Sendable {
    case learner
    case instructor
    case admin

    public var displayName: LocalizedText {
        switch self {
        case .learner: "Learner"
        case .instructor: "Instructor"
        case .admin: "Admin"
        }
    }
}

/// A signed-up person, as the features see them (never with a password).
public struct User: Identifiable, Hashable, Sendable {
    public let id: UserID
    public var name: String
    public var email: String
    public var role: UserRole
    public var memberSince: Date

    public init(id: UserID, name: String, email: String, role: UserRole = .learner, memberSince: Date) {
        self.id = id
        self.name = name
        self.email = email
        self.role = role
        self.memberSince = memberSince
    }
}
