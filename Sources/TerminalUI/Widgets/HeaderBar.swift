/// The top row: the numbered tabs with the current one marked, then, where there is room,
/// the app name and the signed-in user's name. Tabs always fit (down to 60 columns).
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
        let showBrand = 1 + brand.displayWidth + 2 + tabsWidth + 1 <= width
        var x = 1
        if showBrand {
            x += canvas.draw(brand, x: x, y: row, style: .header) + 2
        }
        for (index, label) in labels.enumerated() {
            x += canvas.draw(label, x: x, y: row, style: index == selectedTab ? .activeTab : .header)
        }
        guard let userName else { return }
        let room = width - x - 3
        guard room >= 4 else { return }
        let name = TerminalText.truncate(TerminalText.sanitize(userName), toWidth: min(room, 30))
        canvas.draw(name, x: width - name.displayWidth - 1, y: row, style: .header)
    }
}
