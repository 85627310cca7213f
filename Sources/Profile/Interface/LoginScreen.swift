import Presentation
import SharedKernel
import TerminalUI

/// The sign-in screen: a small centred form. Every key but Ctrl-C goes to it.
@MainActor
final class LoginScreen: Screen {
    enum Keys {
        static let next = KeyDeclaration(
            "Tab", "next field", help: "next field (also ↓; Shift-Tab or ↑: previous)", action: "login.next_field")
        static let submit = KeyDeclaration("Enter", "submit", help: "sign in, or create the account", action: "login.submit")
        static let switchMode = KeyDeclaration(
            "Ctrl-N", "create account", help: "create an account instead (Esc goes back)", action: "login.create_account")
        static let back = KeyDeclaration("Esc", "back to sign in", help: "leave account creation", action: "login.back")
        static let quit = KeyDeclaration("Ctrl-C", "quit", help: "quit")
    }

    nonisolated static let declaredKeys = [Keys.next, Keys.submit, Keys.switchMode, Keys.back, Keys.quit]

    private let viewModel: LoginViewModel
    /// The server signed in to (remote mode): named where the local demo account's hint is.
    private let server: String?

    init(viewModel: LoginViewModel, server: String? = nil) {
        self.viewModel = viewModel
        self.server = server
    }

    var keys: [KeyDeclaration] { Self.declaredKeys }

    func appear() {
        viewModel.forgetFailure()
    }

    /// The form has every key, so nothing here is ever explained: a key of the other mode
    /// sleeps.
    func availability(of key: KeyDeclaration) -> KeyAvailability {
        switch key {
        case Keys.switchMode: viewModel.mode == .signIn ? .available : .dormant
        case Keys.back: viewModel.mode == .createAccount ? .available : .dormant
        default: .available
        }
    }

    var statusMessage: StatusMessage? {
        viewModel.isSubmitting ? StatusMessage(viewModel.mode == .signIn ? "Signing in…" : "Creating your account…") : nil
    }

    var isCapturingText: Bool { true }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        let area = frame.area
        let texts = frame.texts
        let width = min(56, area.width - 4)
        let kinds = viewModel.mode.fields
        // The labels' column fits the longest (`Contraseña`) and a space.
        let labelWidth = max(10, (kinds.map { texts(Self.label($0)).displayWidth }.max() ?? 0) + 2)
        let fieldWidth = width - labelWidth
        // Every error wraps under what it is about: measure before placing the form.
        let fieldErrors = kinds.map { kind in viewModel.error(for: kind).map { TextWrapper.wrap(texts($0), width: fieldWidth) } ?? [] }
        let formError = viewModel.formError.map { TextWrapper.wrap(texts($0), width: width) } ?? []
        let notice = viewModel.notice.map { TextWrapper.wrap(texts($0), width: width) } ?? []
        let subtitles = self.subtitles
        let height =
            notice.count + (notice.isEmpty ? 0 : 1) + 2 + subtitles.count + kinds.count * 2 + fieldErrors.reduce(0) { $0 + $1.count }
            + formError.count
        let x = area.x + (area.width - width) / 2
        var y = area.y + max(0, (area.height - height) / 2)
        for line in notice {
            canvas.draw(line, x: x, y: y, width: width, style: .error)
            y += 1
        }
        if !notice.isEmpty { y += 1 }
        let title: LocalizedText = viewModel.mode == .signIn ? "Sign in to EduGo" : "Create an EduGo account"
        canvas.draw(texts(title), x: x, y: y, style: .bold)
        y += 1
        for subtitle in subtitles {
            canvas.draw(texts(subtitle), x: x, y: y, width: width, style: .dim)
            y += 1
        }
        y += 1
        let fieldX = x + labelWidth
        for (index, kind) in kinds.enumerated() {
            let focused = index == viewModel.focus
            canvas.draw(texts(Self.label(kind)), x: x, y: y, style: focused ? .bold : .dim)
            canvas.fill(Rect(x: fieldX, y: y, width: fieldWidth, height: 1), style: .selection)
            let field = index == viewModel.passwordIndex ? viewModel.fields[index].masked() : viewModel.fields[index]
            field.draw(in: &canvas, x: fieldX, y: y, width: fieldWidth, focused: focused, style: .selection)
            y += 1
            for line in fieldErrors[index] {
                canvas.draw(line, x: fieldX, y: y, width: fieldWidth, style: .error)
                y += 1
            }
            y += 1
        }
        for line in formError {
            canvas.draw(line, x: x, y: y, width: width, style: .error)
            y += 1
        }
    }

    /// Under the title: the server signed in to (remote mode), then the demo account (the
    /// local database's) or what a password needs.
    private var subtitles: [LocalizedText] {
        let place: [LocalizedText] = server.map { ["On the server \(verbatim: $0)"] } ?? []
        switch viewModel.mode {
        case .signIn: return server == nil ? ["Demo account: demo@edugo.dev / edugo-demo"] : place
        case .createAccount: return place + ["Passwords need 8 or more characters"]
        }
    }

    private static func label(_ field: AccountField) -> LocalizedText {
        switch field {
        case .name: "Name"
        case .email: "Email"
        case .password: "Password"
        }
    }

    func handle(_ event: InputEvent) async -> EventResult {
        switch event {
        case .key(.enter): await viewModel.submit()
        case .key(.tab), .key(.down): viewModel.moveFocus(by: 1)
        case .key(.backTab), .key(.up): viewModel.moveFocus(by: -1)
        case .key(.control("n")):
            if viewModel.mode == .signIn { viewModel.toggleMode() }
        case .key(.escape):
            if viewModel.mode == .createAccount { viewModel.toggleMode() }
        case .key(let key): viewModel.edit(key)
        case .mouse, .resize: break
        }
        return .handled
    }
}
