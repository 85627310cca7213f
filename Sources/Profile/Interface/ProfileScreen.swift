import Presentation
import SharedKernel
import TerminalUI

/// Tab 4: who the learner is, and their name edited in place.
@MainActor
final class ProfileScreen: Screen {
    enum Keys {
        static let edit = KeyDeclaration("e", "edit name", help: "edit your name", action: "profile.edit")
        static let save = KeyDeclaration("Enter", "save", help: "while editing: save the name", action: "profile.save")
        static let cancel = KeyDeclaration("Esc", "cancel", help: "while editing: keep the name as it was", action: "profile.cancel")
        static let clear = KeyDeclaration("Ctrl-U", "clear", help: "while editing: clear the field", action: "profile.clear")
        static let logOut = KeyDeclaration("l", "log out", help: "log out, after y", action: "profile.log_out")
    }

    nonisolated static let declaredKeys = [Keys.edit, Keys.save, Keys.cancel, Keys.clear, Keys.logOut, YesNoQuestion.yes, YesNoQuestion.no]
    static let labelWidth = 18

    private let viewModel: ProfileViewModel

    init(viewModel: ProfileViewModel) {
        self.viewModel = viewModel
    }

    var keys: [KeyDeclaration] { Self.declaredKeys }

    func availability(of key: KeyDeclaration) -> KeyAvailability {
        switch key {
        case Keys.save, Keys.cancel, Keys.clear: viewModel.isEditing ? .available : .dormant
        case YesNoQuestion.yes, YesNoQuestion.no: viewModel.isConfirmingLogout ? .available : .dormant
        case _ where viewModel.isEditing || viewModel.isConfirmingLogout: .dormant
        case Keys.edit: viewModel.isSaving ? .unavailable(reason: "Your name is being saved — edit it again once it is") : .available
        // Signing out always works, a rename under way or not.
        case Keys.logOut: .available
        default: .dormant
        }
    }

    var statusMessage: StatusMessage? {
        if viewModel.isConfirmingLogout { return StatusMessage("Log out? (y/n)") }
        return viewModel.isSaving ? StatusMessage("Saving…") : nil
    }

    /// While the name is edited, or the y/n question is open, every key but Ctrl-C stays here.
    var isCapturingText: Bool { viewModel.isEditing || viewModel.isConfirmingLogout }

    func appear() {
        guard !viewModel.isEditing else { return }
        let viewModel = self.viewModel
        viewModel.tasks.run { await viewModel.refresh() }
    }

    func disappear() {
        viewModel.tasks.cancelAll()
    }

    func settle() async {
        await viewModel.tasks.settle()
    }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        let area = frame.area.insetBy(horizontal: 2)
        let user = viewModel.user
        let valueX = area.x + Self.labelWidth
        let valueWidth = area.width - Self.labelWidth
        canvas.draw("Profile", x: area.x, y: area.y, style: .bold)
        var y = area.y + 2
        func fact(_ label: String, _ value: String, style: Style = .normal, in canvas: inout some Canvas) {
            canvas.draw(label, x: area.x, y: y, width: Self.labelWidth, style: .dim)
            canvas.draw(value, x: valueX, y: y, width: valueWidth, style: style)
            y += 1
        }
        if let field = viewModel.nameField {
            canvas.draw("Name", x: area.x, y: y, width: Self.labelWidth, style: .dim)
            let fieldWidth = min(valueWidth, ProfileName.maximumLength + 2)
            canvas.fill(Rect(x: valueX, y: y, width: fieldWidth, height: 1), style: .selection)
            field.draw(in: &canvas, x: valueX, y: y, width: fieldWidth, focused: true, style: .selection)
            y += 1
            if let rejection = viewModel.rejection {
                for line in TextWrapper.wrap(rejection, width: valueWidth) {
                    canvas.draw(line, x: valueX, y: y, width: valueWidth, style: .error)
                    y += 1
                }
            }
        } else {
            fact(
                "Name", viewModel.name + (viewModel.isSaving ? "  (saving…)" : ""), style: viewModel.isSaving ? .dim : .normal, in: &canvas)
        }
        fact("Email", user.email, in: &canvas)
        fact("Role", user.role.displayName, in: &canvas)
        fact("Member since", DateText.format(user.memberSince), in: &canvas)
        // A count that could not be read says so, rather than a 0 that is not true.
        let counts = viewModel.learner.counts()
        let loaded = viewModel.countsLoaded
        let shown = { (count: Int?) in loaded ? count.map(String.init) ?? "— (could not be read)" : "…" }
        fact("Enrolled courses", shown(counts.enrolled), in: &canvas)
        fact("Favourites", shown(counts.favourites), in: &canvas)
        let habit = viewModel.habit
        fact("Streak", loaded ? habit.map { Self.days($0.streakDays) } ?? "— (could not be read)" : "…", in: &canvas)
        fact("To review", loaded ? habit.map { "\($0.dueCount) due today (tab 5)" } ?? "— (could not be read)" : "…", in: &canvas)
    }

    /// `3 days in a row`; `none yet` for none: a lesson or a review today starts one.
    static func days(_ count: Int) -> String {
        switch count {
        case 0: "none yet — a lesson or a review today starts one"
        case 1: "1 day"
        default: "\(count) days in a row"
        }
    }

    func handle(_ event: InputEvent) async -> EventResult {
        let viewModel = self.viewModel
        if viewModel.isEditing {
            switch event {
            case .key(.enter): viewModel.save()
            case .key(.escape): viewModel.cancelEditing()
            case .key(let key): viewModel.edit(key)
            case .mouse, .resize: break
            }
            return .handled
        }
        if viewModel.isConfirmingLogout {
            switch YesNoQuestion.answer(to: event) {
            case .yes: await viewModel.logOut()
            case .no: viewModel.cancelLogout()
            case nil: break
            }
            return .handled
        }
        switch event {
        case .key(.character("l")):
            viewModel.requestLogout()
            return .handled
        case .key(.character("e")):
            guard isAvailable(Keys.edit) else { return .ignored }
            viewModel.beginEditing()
            return .handled
        default:
            return .ignored
        }
    }
}
