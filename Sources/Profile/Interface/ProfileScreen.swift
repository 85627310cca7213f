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
        static let clearSaved = KeyDeclaration(
            "c", "clear saved", help: "remote mode: clear the lessons saved for offline, after y", action: "profile.clear_saved")
    }

    nonisolated static let declaredKeys = [
        Keys.edit, Keys.save, Keys.cancel, Keys.clear, Keys.logOut, Keys.clearSaved, YesNoQuestion.yes, YesNoQuestion.no,
    ]
    static let labelWidth = 18

    private let viewModel: ProfileViewModel

    init(viewModel: ProfileViewModel) {
        self.viewModel = viewModel
    }

    var keys: [KeyDeclaration] { Self.declaredKeys }

    func availability(of key: KeyDeclaration) -> KeyAvailability {
        switch key {
        case Keys.save, Keys.cancel, Keys.clear: viewModel.isEditing ? .available : .dormant
        case YesNoQuestion.yes, YesNoQuestion.no: viewModel.asking != nil ? .available : .dormant
        case _ where viewModel.isEditing || viewModel.asking != nil: .dormant
        case Keys.clearSaved:
            viewModel.learner.offline == nil
                ? .dormant : (viewModel.saved?.lessons ?? 0) > 0 ? .available : .unavailable(reason: "No lessons are saved for offline")
        case Keys.edit: viewModel.isSaving ? .unavailable(reason: "Your name is being saved — edit it again once it is") : .available
        // Signing out always works, a rename under way or not.
        case Keys.logOut: .available
        default: .dormant
        }
    }

    var statusMessage: StatusMessage? {
        switch viewModel.asking {
        case .clearSaved: return StatusMessage("Clear the lessons saved for offline? (y/n)")
        case .logOut:
            // Writes still waiting are kept for the learner's next sign-in here: said, not lost.
            let waiting = viewModel.learner.waitingWrites()
            return StatusMessage(waiting > 0 ? "\(waiting) changes not synced yet. Log out? (y/n)" : "Log out? (y/n)")
        case nil: return viewModel.isSaving ? StatusMessage("Saving…") : nil
        }
    }

    /// While the name is edited, or the y/n question is open, every key but Ctrl-C stays here.
    var isCapturingText: Bool { viewModel.isEditing || viewModel.asking != nil }

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
        let texts = frame.texts
        let user = viewModel.user
        // The labels' column fits the longest in the language in force (`Cursos en los que estás`).
        let labelWidth = max(Self.labelWidth, (Self.labels.map { texts($0).displayWidth }.max() ?? 0) + 2)
        let valueX = area.x + labelWidth
        let valueWidth = area.width - labelWidth
        canvas.draw(texts("Profile"), x: area.x, y: area.y, style: .bold)
        canvas.markFocus(x: area.x, y: area.y + 2)
        var y = area.y + 2
        // A value longer than its column wraps under itself (`none yet — a lesson or a review
        // today starts one` at 60 columns), never cut.
        func fact(_ label: LocalizedText, _ value: LocalizedText, style: Style = .normal, in canvas: inout some Canvas) {
            canvas.draw(texts(label), x: area.x, y: y, width: labelWidth, style: .dim)
            let lines = TextWrapper.wrap(texts(value), width: max(1, valueWidth))
            for line in lines.isEmpty ? [""] : lines {
                canvas.draw(line, x: valueX, y: y, width: valueWidth, style: style)
                y += 1
            }
        }
        if let field = viewModel.nameField {
            canvas.draw(texts("Name"), x: area.x, y: y, width: labelWidth, style: .dim)
            let fieldWidth = min(valueWidth, ProfileName.maximumLength + 2)
            canvas.fill(Rect(x: valueX, y: y, width: fieldWidth, height: 1), style: .selection)
            field.draw(in: &canvas, x: valueX, y: y, width: fieldWidth, focused: true, style: .selection)
            y += 1
            if let rejection = viewModel.rejection {
                for line in TextWrapper.wrap(texts(rejection), width: valueWidth) {
                    canvas.draw(line, x: valueX, y: y, width: valueWidth, style: .error)
                    y += 1
                }
            }
        } else {
            let name: LocalizedText = viewModel.isSaving ? "\(viewModel.name)  (saving…)" : .verbatim(viewModel.name)
            fact("Name", name, style: viewModel.isSaving ? .dim : .normal, in: &canvas)
        }
        fact("Email", .verbatim(user.email), in: &canvas)
        fact("Role", user.role.displayName, in: &canvas)
        fact("Member since", "\(day: user.memberSince)", in: &canvas)
        // A count that could not be read says so, rather than a 0 that is not true.
        let counts = viewModel.learner.counts()
        let loaded = viewModel.countsLoaded
        let shown = { (count: Int?) -> LocalizedText in loaded ? count.map { "\($0)" } ?? "— (could not be read)" : "…" }
        fact("Enrolled courses", shown(counts.enrolled), in: &canvas)
        fact("Favourites", shown(counts.favourites), in: &canvas)
        let habit = viewModel.habit
        fact("Streak", loaded ? habit.map { Self.days($0.streakDays) } ?? "— (could not be read)" : "…", in: &canvas)
        fact(
            "To review", loaded ? habit.map { "\($0.dueCount) due today (tab 5)" } ?? "— (could not be read)" : "…", in: &canvas)
        if viewModel.learner.offline != nil {
            fact("Saved offline", loaded ? viewModel.saved.map(Self.saved) ?? "— (could not be read)" : "…", in: &canvas)
        }
    }

    /// The facts' labels, whose longest sets the values' column.
    static let labels: [LocalizedText] = [
        "Name", "Email", "Role", "Member since", "Enrolled courses", "Favourites", "Streak", "To review", "Saved offline",
    ]

    /// `3 courses · 41 lessons · 248 KB`; `nothing yet`.
    static func saved(_ saved: SavedOffline) -> LocalizedText {
        guard saved.lessons > 0 else { return "nothing yet — enrolled courses are saved after sign-in" }
        let kilobytes = (saved.bytes + 999) / 1_000
        let size: LocalizedText = kilobytes < 10_000 ? "\(kilobytes) KB" : "\(kilobytes / 1_000) MB"
        let (courses, lessons): (LocalizedText, LocalizedText) = ("\(saved.courses) courses", "\(saved.lessons) lessons")
        return "\(courses) · \(lessons) · \(size)"
    }

    /// `3 days in a row`; `none yet` for none: a lesson or a review today starts one.
    static func days(_ count: Int) -> LocalizedText {
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
        if viewModel.asking != nil {
            if let answer = YesNoQuestion.answer(to: event) { await viewModel.answer(yes: answer == .yes) }
            return .handled
        }
        switch event {
        case .key(.character("l")):
            viewModel.ask(.logOut)
            return .handled
        case .key(.character("e")):
            guard isAvailable(Keys.edit) else { return .ignored }
            viewModel.beginEditing()
            return .handled
        case .key(.character("c")) where viewModel.learner.offline != nil:
            guard isAvailable(Keys.clearSaved) else { return .ignored }
            viewModel.ask(.clearSaved)
            return .handled
        default:
            return .ignored
        }
    }
}
