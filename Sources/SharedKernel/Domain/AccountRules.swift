import Foundation

/// A field of the account form.
public enum AccountField: String, Hashable, Sendable {
    case name
    case email
    case password
}

/// Why an account form was refused: the field at fault and the sentence shown under it.
public struct AccountRejection: Error, Hashable, Sendable {
    public let field: AccountField
    public let message: LocalizedText

    public init(field: AccountField, message: LocalizedText) {
        self.field = field
        self.message = message
    }
}

/// A new account's details, checked by `AccountRules`.
public struct NewAccount: Hashable, Sendable {
    public let name: String
    public let email: String
    public let password: String
}

/// The account form's rules, checked before anything is hashed or written, by every store.
public enum AccountRules {
    public static let minimumPasswordLength = 8

    /// The details to store (name and email trimmed), or the first field at fault, in form order.
    public static func validate(name: String, email: String, password: String) -> Result<NewAccount, AccountRejection> {
        let checkedName: String
        switch ProfileName.validate(name) {
        case .success(let valid): checkedName = valid
        case .failure(let rejection): return .failure(AccountRejection(field: .name, message: rejection.message))
        }
        guard let checkedEmail = normalizedEmail(email) else { return .failure(emailRejection) }
        guard isLongEnough(password) else { return .failure(passwordRejection) }
        return .success(NewAccount(name: checkedName, email: checkedEmail, password: password))
    }

    /// Every field at fault, in form order, so a form can say all of it at once.
    public static func problems(name: String, email: String, password: String) -> [AccountRejection] {
        var problems: [AccountRejection] = []
        if case .failure(let rejection) = ProfileName.validate(name) {
            problems.append(AccountRejection(field: .name, message: rejection.message))
        }
        if normalizedEmail(email) == nil { problems.append(emailRejection) }
        if !isLongEnough(password) { problems.append(passwordRejection) }
        return problems
    }

    private static let emailRejection = AccountRejection(field: .email, message: "Enter a valid email address")
    private static let passwordRejection = AccountRejection(
        field: .password, message: "Use a password of \(minimumPasswordLength) or more characters")

    private static func isLongEnough(_ password: String) -> Bool {
        password.count >= minimumPasswordLength
    }

    /// The one form of an email that every store and limit compares: trimmed, NFC, lower case.
    /// Two spellings of one address (`Ana@X.org`, a decomposed `é`) are one key.
    public static func emailKey(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping.lowercased()
            .precomposedStringWithCanonicalMapping
    }

    /// The email to store, when it looks like one: trimmed, in NFC; one `@`, something before
    /// it, a dotted domain after it; no whitespace, control, format (zero-width, bidi
    /// controls), private-use or unassigned characters, which would make one address look
    /// like another.
    public static func normalizedEmail(_ raw: String) -> String? {
        let email = raw.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            email.unicodeScalars.count <= 254,
            !email.unicodeScalars.contains(where: isRefusedInEmail)
        else { return nil }
        return email
    }

    private static func isRefusedInEmail(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}
