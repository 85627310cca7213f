import Presentation
import SharedKernel
import TerminalUI

extension AppCoordinator {
    /// The global keys that move between screens: `q` (back; quit at a tab's root), `Esc`,
    /// the digits of the tabs (unless the screen takes digits), `Alt` and a digit, `Tab` and
    /// `Shift-Tab`. Whether the app should quit.
    func navigate(by event: InputEvent, digitsSwitchTabs: Bool = true) -> Bool {
        switch event {
        case .key(.character("q")):
            return !pop()
        case .key(.escape):
            pop()
        case .key(.character(let character)) where digitsSwitchTabs, .key(.alt(let character)):
            if let tab = AppTab(numberKey: character) { switchTab(to: tab) }
        case .key(.tab):
            switchTab(to: tab.next)
        case .key(.backTab):
            switchTab(to: tab.previous)
        default:
            break
        }
        return false
    }

    /// A click on the header's row at column `x`: the tab drawn there, if any, comes to the
    /// front. Whether one did.
    func switchTab(atHeaderColumn x: Int, width: Int, userName: String?, place: String?, mark: String? = nil, texts: Texts) -> Bool {
        guard
            let index = HeaderBar.tab(
                atColumn: x, tabs: AppTab.allCases.map { texts($0.title) }, shortTabs: AppTab.allCases.map { texts($0.shortTitle) },
                width: width, userName: userName, place: place, mark: mark),
            let tab = AppTab(rawValue: index)
        else { return false }
        switchTab(to: tab)
        return true
    }
}
