import Presentation
import SharedKernel

/// A y/n question that holds the keyboard until it is answered (`Unenroll from …? (y/n)`,
/// `Log out? (y/n)`): its keys, declared once, and what a key answers.
public enum YesNoQuestion {
    public static let yes = KeyDeclaration("y", "yes", help: "answer yes to a question", action: "question.yes")
    public static let no = KeyDeclaration("n", "no", help: "answer no (also Esc)", action: "question.no")

    public enum Answer: Hashable, Sendable {
        case yes
        case no
    }

    /// `y` or `Y` says yes; `n`, `N` or Esc no; any other key answers nothing (the question
    /// keeps it, so it reaches nothing else).
    public static func answer(to event: InputEvent) -> Answer? {
        switch event {
        case .key(.character("y")), .key(.character("Y")): .yes
        case .key(.character("n")), .key(.character("N")), .key(.escape): .no
        default: nil
        }
    }
}
