import Observation
import SharedKernel
import TerminalUI

/// The sign-in form, and the create-account form behind Ctrl-N.
@Observable
@MainActor
final class LoginViewModel {
    enum Mode: Equatable {
        case signIn
        case createAccount

        var labels: [String] {
            switch self {
            case .signIn: ["Email", "Password"]
            case .createAccount: ["Name", "Email", "Password"]
            }
        }
    }

    private(set) var mode: Mode = .signIn
    private(set) var fields: [TextField] = [TextField(), TextField()]
    private(set) var focus = 0
    private(set) var error: String?
    private(set) var isSubmitting = false

    private let signIn: SignInUseCase
    private let createAccount: CreateAccountUseCase
    private let onSignedIn: @MainActor (User) -> Void

    init(signIn: SignInUseCase, createAccount: CreateAccountUseCase, onSignedIn: @escaping @MainActor (User) -> Void) {
        self.signIn = signIn
        self.createAccount = createAccount
        self.onSignedIn = onSignedIn
    }

    /// The last field is the password.
    var passwordIndex: Int { fields.count - 1 }

    /// `Ctrl-N`: switches between signing in and creating an account; the email is kept.
    func toggleMode() {
        let email = fields[mode == .signIn ? 0 : 1]
        mode = mode == .signIn ? .createAccount : .signIn
        fields = mode == .signIn ? [email, TextField()] : [TextField(), email, TextField()]
        focus = 0
        error = nil
    }

    /// `Tab`/`↓` and `Shift-Tab`/`↑`: the next or previous field, wrapping around.
    func moveFocus(by delta: Int) {
        focus = (focus + delta + fields.count) % fields.count
    }

    func edit(_ key: Key) {
        guard fields[focus].handle(key) else { return }
        error = nil
    }

    /// `Enter`: signs in or creates the account; a failure keeps the form with the reason.
    func submit() async {
        guard !isSubmitting else { return }
        isSubmitting = true
        defer { isSubmitting = false }
        error = nil
        do {
            let user: User = switch mode {
            case .signIn: try await signIn.execute(email: fields[0].text, password: fields[1].text)
            case .createAccount: try await createAccount.execute(name: fields[0].text, email: fields[1].text, password: fields[2].text)
            }
            fields[passwordIndex] = TextField()
            onSignedIn(user)
        } catch {
            self.error = error.userMessage
            fields[passwordIndex] = TextField()
            focus = passwordIndex
        }
    }
}
