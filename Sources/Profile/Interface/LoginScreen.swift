import SharedKernel
import TerminalUI

/// The sign-in screen: a small centred form. Every key but Ctrl-C goes to it.
@MainActor
final class LoginScreen: Screen {
    private let viewModel: LoginViewModel

    init(viewModel: LoginViewModel) {
        self.viewModel = viewModel
    }

    var keyHints: [KeyHint] {
        [
            KeyHint("Tab", "next field"),
            KeyHint("Enter", viewModel.mode == .signIn ? "sign in" : "create account"),
            KeyHint("Ctrl-N", viewModel.mode == .signIn ? "create account" : "back to sign in"),
            KeyHint("Ctrl-C", "quit"),
        ]
    }

    var statusMessage: StatusMessage? {
        viewModel.isSubmitting ? StatusMessage(viewModel.mode == .signIn ? "Signing in…" : "Creating your account…") : nil
    }

    var isCapturingText: Bool { true }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        let area = frame.area
        let width = min(56, area.width - 4)
        let labels = viewModel.mode.labels
        let height = 4 + 2 * labels.count + 2
        let x = area.x + (area.width - width) / 2
        var y = area.y + max(0, (area.height - height) / 2)
        let title = viewModel.mode == .signIn ? "Sign in to EduGo" : "Create an EduGo account"
        canvas.draw(title, x: x, y: y, style: .bold)
        y += 1
        let subtitle = viewModel.mode == .signIn ? "Demo account: demo@edugo.dev / edugo-demo" : "Passwords need 8 or more characters"
        canvas.draw(subtitle, x: x, y: y, width: width, style: .dim)
        y += 2
        let fieldX = x + 10
        let fieldWidth = width - 10
        for (index, label) in labels.enumerated() {
            let focused = index == viewModel.focus
            canvas.draw(label, x: x, y: y, style: focused ? .bold : .dim)
            canvas.fill(Rect(x: fieldX, y: y, width: fieldWidth, height: 1), style: .selection)
            let field = index == viewModel.passwordIndex ? viewModel.fields[index].masked() : viewModel.fields[index]
            field.draw(in: &canvas, x: fieldX, y: y, width: fieldWidth, focused: focused, style: .selection)
            y += 2
        }
        if let error = viewModel.error {
            canvas.draw(error, x: fieldX, y: y, width: fieldWidth, style: .error)
        }
    }

    func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .key(.enter): Task { await viewModel.submit() }
        case .key(.tab), .key(.down): viewModel.moveFocus(by: 1)
        case .key(.backTab), .key(.up): viewModel.moveFocus(by: -1)
        case .key(.control("n")): viewModel.toggleMode()
        case .key(let key): viewModel.edit(key)
        case .mouse, .resize: break
        }
        return .handled
    }
}
