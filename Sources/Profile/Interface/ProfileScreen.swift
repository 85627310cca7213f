import SharedKernel
import TerminalUI

/// Tab 4: who the learner is, and their name edited in place.
@MainActor
final class ProfileScreen: Screen {
    private let viewModel: ProfileViewModel
    static let labelWidth = 18

    init(viewModel: ProfileViewModel) {
        self.viewModel = viewModel
    }

    var helpKeys: [KeyHint] {
        [
            KeyHint("e", "edit your name"),
            KeyHint("  Enter", "save it"),
            KeyHint("  Esc", "cancel"),
            KeyHint("  Ctrl-U", "clear the field"),
            KeyHint("l", "log out, after y"),
            KeyHint("r", "retry after an error"),
        ]
    }

    var keyHints: [KeyHint] {
        if viewModel.isEditing { return [KeyHint("Enter", "save"), KeyHint("Esc", "cancel"), KeyHint("Ctrl-U", "clear")] }
        if viewModel.isConfirmingLogout { return [KeyHint("y", "yes"), KeyHint("n", "no")] }
        switch viewModel.state {
        case .loaded: return [KeyHint("e", "edit name"), KeyHint("l", "log out")]
        case .error: return [KeyHint("r", "retry")]
        case .idle, .loading, .empty: return []
        }
    }

    var statusMessage: StatusMessage? {
        if viewModel.isConfirmingLogout { return StatusMessage("Log out? (y/n)") }
        return viewModel.isSaving ? StatusMessage("Saving…") : viewModel.status
    }

    /// While the name is edited, or the y/n question is open, every key but Ctrl-C stays here.
    var isCapturingText: Bool { viewModel.isEditing || viewModel.isConfirmingLogout }
    var isAnimating: Bool { viewModel.state.isLoading }

    func appear() {
        guard !viewModel.isEditing else { return }
        Task { await viewModel.load() }
    }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        StateView.draw(viewModel.state, in: &canvas, area: frame.area, tick: frame.tick, empty: []) { canvas, summary in
            drawProfile(summary, in: &canvas, area: frame.area.insetBy(horizontal: 2))
        }
    }

    private func drawProfile(_ summary: ProfileSummary, in canvas: inout some Canvas, area: Rect) {
        let valueX = area.x + Self.labelWidth
        let valueWidth = area.width - Self.labelWidth
        canvas.draw("Profile", x: area.x, y: area.y, style: .bold)
        var y = area.y + 2
        func fact(_ label: String, _ value: String, in canvas: inout some Canvas) {
            canvas.draw(label, x: area.x, y: y, width: Self.labelWidth, style: .dim)
            canvas.draw(value, x: valueX, y: y, width: valueWidth)
            y += 1
        }
        if let field = viewModel.nameField {
            canvas.draw("Name", x: area.x, y: y, width: Self.labelWidth, style: .dim)
            canvas.fill(Rect(x: valueX, y: y, width: min(valueWidth, ProfileName.maximumLength + 2), height: 1), style: .selection)
            field.draw(in: &canvas, x: valueX, y: y, width: min(valueWidth, ProfileName.maximumLength + 2), focused: true, style: .selection)
            y += 1
            if let rejection = viewModel.rejection {
                canvas.draw(rejection, x: valueX, y: y, width: valueWidth, style: .error)
                y += 1
            }
        } else {
            fact("Name", summary.user.name, in: &canvas)
        }
        fact("Email", summary.user.email, in: &canvas)
        fact("Role", summary.user.role.displayName, in: &canvas)
        fact("Member since", DateText.format(summary.user.memberSince), in: &canvas)
        fact("Enrolled courses", "\(summary.enrolledCount)", in: &canvas)
        fact("Favourites", "\(summary.favouritesCount)", in: &canvas)
    }

    func handle(_ event: InputEvent) -> EventResult {
        if viewModel.isEditing {
            switch event {
            case .key(.enter): Task { await viewModel.save() }
            case .key(.escape): viewModel.cancelEditing()
            case .key(let key): viewModel.edit(key)
            case .mouse, .resize: break
            }
            return .handled
        }
        if viewModel.isConfirmingLogout {
            switch event {
            case .key(.character("y")), .key(.character("Y")): Task { await viewModel.logOut() }
            case .key(.character("n")), .key(.character("N")), .key(.escape): viewModel.cancelLogout()
            default: break
            }
            return .handled
        }
        viewModel.clearStatus()
        switch event {
        case .key(.character("l")):
            guard viewModel.state.value != nil else { return .ignored }
            viewModel.requestLogout()
            return .handled
        case .key(.character("e")):
            guard viewModel.state.value != nil else { return .ignored }
            viewModel.beginEditing()
            return .handled
        case .key(.character("r")):
            guard case .error = viewModel.state else { return .ignored }
            Task { await viewModel.load() }
            return .handled
        default:
            return .ignored
        }
    }

}
