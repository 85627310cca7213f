import Observation
import Presentation
import SharedKernel

/// The sign-in form, and the create-account form behind Ctrl-N.
@Observable
@MainActor
final class LoginViewModel {
    enum Mode: Equatable {
        case signIn
        case createAccount

        var fields: [AccountField] {
            switch self {
            case .signIn: [.email, .password]
            case .createAccount: [.name, .email, .password]
            }
        }
    }

    private(set) var mode: Mode = .signIn
    private(set) var fields: [TextField] = [TextField(), TextField()]
    private(set) var focus = 0
    /// The problems with single fields, each shown under its field.
    private(set) var fieldErrors: [AccountField: LocalizedText] = [:]
    /// A problem with the whole form (wrong email or password, the store), shown under it.
    private(set) var formError: LocalizedText?
    private(set) var isSubmitting = false
    /// Why the learner is asked to sign in, when it is not the first start.
    let notice: LocalizedText?

    private let sessions: any SessionRepository
    private let onSignedIn: @MainActor (User) -> Void

    /// `email`: the email field starts with it and the password has the focus.
    init(
        sessions: any SessionRepository, notice: LocalizedText? = nil, email: String? = nil, onSignedIn: @escaping @MainActor (User) -> Void
    ) {
        self.sessions = sessions
        self.notice = notice
        self.onSignedIn = onSignedIn
        if let email, !email.isEmpty {
            fields[index(of: .email)] = TextField(text: email)
            focus = passwordIndex
        }
    }

    var passwordIndex: Int { fields.count - 1 }

    func error(for field: AccountField) -> LocalizedText? {
        fieldErrors[field]
    }

    /// `Ctrl-N` (and `Esc` back from creating one): switches between signing in and creating
    /// an account; the email is kept.
    func toggleMode() {
        let email = fields[index(of: .email)]
        mode = mode == .signIn ? .createAccount : .signIn
        fields = mode.fields.map { $0 == .email ? email : TextField() }
        focus = 0
        fieldErrors = [:]
        formError = nil
    }

    /// `Tab`/`↓` and `Shift-Tab`/`↑`: the next or previous field, wrapping around.
    func moveFocus(by delta: Int) {
        focus = (focus + delta + fields.count) % fields.count
    }

    func edit(_ key: Key) {
        guard fields[focus].handle(key) else { return }
        fieldErrors[mode.fields[focus]] = nil
        formError = nil
    }

    /// The screen came back into view (or the server answered again): a failure of the last
    /// try is no longer news.
    func forgetFailure() {
        guard !isSubmitting else { return }
        formError = nil
    }

    /// `Enter`: signs in or creates the account. Each problem shows under the field it is
    /// about, all at once, with the focus on the first; the password is kept unless it was one.
    func submit() async {
        guard !isSubmitting else { return }
        fieldErrors = [:]
        formError = nil
        if mode == .createAccount {
            let problems = AccountRules.problems(name: text(.name), email: text(.email), password: text(.password))
            for problem in problems.reversed() { show(problem.message, at: problem.field) }
            guard problems.isEmpty else { return }
        }
        isSubmitting = true
        defer { isSubmitting = false }
        do throws(AppError) {
            let user: User =
                switch mode {
                case .signIn:
                    try await sessions.signIn(email: text(.email), password: text(.password))
                case .createAccount:
                    try await sessions.createAccount(name: text(.name), email: text(.email), password: text(.password))
                }
            fields[passwordIndex] = TextField()
            onSignedIn(user)
        } catch .invalidCredentials {
            formError = AppError.invalidCredentials.userMessage
            fields[passwordIndex] = TextField()
            focus = passwordIndex
        } catch .invalidAccount(let rejection) {
            show(rejection.message, at: rejection.field)
        } catch .emailTaken {
            show(AppError.emailTaken.userMessage, at: .email)
        } catch {
            formError = error.userMessage
        }
    }

    private func show(_ message: LocalizedText, at field: AccountField) {
        fieldErrors[field] = message
        focus = index(of: field)
        if field == .password { fields[passwordIndex] = TextField() }
    }

    private func index(of field: AccountField) -> Int {
        mode.fields.firstIndex(of: field) ?? 0
    }

    private func text(_ field: AccountField) -> String {
        fields[index(of: field)].text
    }
}
