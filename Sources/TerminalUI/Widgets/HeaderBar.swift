/// The top row: the numbered tabs with the current one marked, the signed-in user's name, and
/// the app name when there is room. Tabs come first, then the name, then the brand.
public enum HeaderBar {
    static let brand = "EduGo"

    public static func draw(
        in canvas: inout some Canvas,
        row: Int,
        tabs: [String],
        selectedTab: Int,
        userName: String?
    ) {
        let width = canvas.size.width
        canvas.fill(Rect(x: 0, y: row, width: width, height: 1), style: .header)
        let labels = tabs.enumerated().map { " \($0.offset + 1) \($0.element) " }
        let tabsWidth = labels.reduce(0) { $0 + $1.displayWidth }
        let name = userName.map { TerminalText.clean($0, width: 30) } ?? ""
        let brandWidth = brand.displayWidth + 2
        let showBrand = 1 + brandWidth + tabsWidth + (name.isEmpty ? 0 : 2 + name.displayWidth) + 1 <= width
        var x = 1
        if showBrand {
            x += canvas.draw(brand, x: x, y: row, style: .header) + 2
        }
        for (index, label) in labels.enumerated() {
            x += canvas.draw(label, x: x, y: row, style: index == selectedTab ? .activeTab : .header)
        }
        let room = width - x - 2
        guard !name.isEmpty, room >= 4 else { return }
        let shown = TerminalText.truncate(name, toWidth: room)
        canvas.draw(shown, x: width - shown.displayWidth - 1, y: row, style: .header)
    }
}
