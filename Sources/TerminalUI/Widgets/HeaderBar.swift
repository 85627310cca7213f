/// The top row: the app name, the numbered tabs with the current one marked, the user's name.
public enum HeaderBar {
    public static func draw(
        in canvas: inout some Canvas,
        row: Int,
        tabs: [String],
        selectedTab: Int,
        userName: String?
    ) {
        let width = canvas.size.width
        canvas.fill(Rect(x: 0, y: row, width: width, height: 1), style: .header)
        var x = 1
        x += canvas.draw("EduGo", x: x, y: row, style: .header) + 2
        let nameWidth = userName.map { min($0.displayWidth, 24) + 2 } ?? 0
        for (index, title) in tabs.enumerated() {
            let label = " \(index + 1) \(title) "
            let room = width - nameWidth - x
            guard room >= label.displayWidth else { break }
            x += canvas.draw(label, x: x, y: row, style: index == selectedTab ? .activeTab : .header)
        }
        if let userName {
            let name = TerminalText.truncate(TerminalText.sanitize(userName), toWidth: 24)
            let nameX = width - name.displayWidth - 1
            if nameX > x { canvas.draw(name, x: nameX, y: row, style: .header) }
        }
    }
}
