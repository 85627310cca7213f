import Presentation

/// The top row: the numbered tabs with the current one marked, the signed-in user's name, and
/// the app name when there is room. Tabs come first, then the name, then the brand.
public enum HeaderBar {
    static let brand = "EduGo"

    private struct Layout {
        var showBrand: Bool
        /// The labels drawn: the tabs' titles, or their short forms where those do not fit.
        var labels: [String]
        /// The columns of each tab's label.
        var tabs: [Range<Int>]
    }

    /// The tabs with their titles when they fit beside the name (at least 4 columns of it),
    /// else with `shortTabs`; the brand only when everything fits.
    private static func layout(tabs: [String], shortTabs: [String], width: Int, name: String) -> Layout {
        let full = tabs.enumerated().map { " \($0.offset + 1) \($0.element) " }
        let nameRoom = name.isEmpty ? 0 : 2 + min(4, name.displayWidth)
        let fits = 1 + full.reduce(0) { $0 + $1.displayWidth } + nameRoom + 1 <= width
        let labels =
            fits || shortTabs.count != tabs.count ? full : shortTabs.enumerated().map { " \($0.offset + 1) \($0.element) " }
        let tabsWidth = labels.reduce(0) { $0 + $1.displayWidth }
        let brandWidth = brand.displayWidth + 2
        let showBrand = 1 + brandWidth + tabsWidth + (name.isEmpty ? 0 : 2 + name.displayWidth) + 1 <= width
        var x = 1 + (showBrand ? brandWidth : 0)
        let ranges = labels.map { label in
            defer { x += label.displayWidth }
            return x..<(x + label.displayWidth)
        }
        return Layout(showBrand: showBrand, labels: labels, tabs: ranges)
    }

    /// The tab under column `x`, if any.
    public static func tab(atColumn x: Int, tabs: [String], shortTabs: [String] = [], width: Int, userName: String?) -> Int? {
        let name = userName.map { TerminalText.clean($0, width: 30) } ?? ""
        return layout(tabs: tabs, shortTabs: shortTabs, width: width, name: name).tabs.firstIndex { $0.contains(x) }
    }

    /// Draws the bar. `mark` (e.g. that the server cannot be reached) sits at the right edge.
    /// `context` (the store, counts) goes before the name, as much of it as fits, its first
    /// parts dropped first.
    public static func draw(
        in canvas: inout some Canvas,
        row: Int,
        tabs: [String],
        shortTabs: [String] = [],
        selectedTab: Int,
        userName: String?,
        mark: String? = nil,
        context: [String] = []
    ) {
        let width = canvas.size.width
        canvas.fill(Rect(x: 0, y: row, width: width, height: 1), style: .header)
        let name = userName.map { TerminalText.clean($0, width: 30) } ?? ""
        let layout = layout(tabs: tabs, shortTabs: shortTabs, width: width, name: name)
        if layout.showBrand {
            canvas.draw(brand, x: 1, y: row, style: .header)
        }
        for (index, range) in layout.tabs.enumerated() {
            canvas.draw(layout.labels[index], x: range.lowerBound, y: row, style: index == selectedTab ? .activeTab : .header)
        }
        var right = width - 1
        if let mark {
            let shown = TerminalText.clean(mark, width: max(0, width / 2))
            right -= shown.displayWidth
            canvas.draw(shown, x: right, y: row, style: .activeTab)
            right -= 2
        }
        let left = layout.tabs.last?.upperBound ?? (layout.showBrand ? 1 + brand.displayWidth : 1)
        let room = right - left - 1
        guard !name.isEmpty, room >= 4 else { return }
        let shown = TerminalText.truncate(name, toWidth: room)
        canvas.draw(shown, x: right - shown.displayWidth, y: row, style: .header)
        // Two columns from the tabs, three (` · `) from the name.
        var parts = context.map { TerminalText.clean($0, width: 60) }.filter { !$0.isEmpty }
        let contextRoom = room - shown.displayWidth - 3 - 2
        while !parts.isEmpty, parts.joined(separator: " · ").displayWidth > contextRoom { parts.removeFirst() }
        guard !parts.isEmpty else { return }
        let text = parts.joined(separator: " · ") + " · "
        canvas.draw(text, x: right - shown.displayWidth - text.displayWidth, y: row, style: .header)
    }
}
