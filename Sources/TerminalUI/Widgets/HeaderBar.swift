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

    /// From this width the store is always named: the tabs take their short titles for it.
    public static let placeWidth = 80

    /// The columns the store's name needs beside the name, from `placeWidth` on.
    private static func placeRoom(_ place: String, width: Int) -> Int {
        place.isEmpty || width < placeWidth ? 0 : place.displayWidth + 3
    }

    /// The mark as drawn at the right edge: at most half the width.
    private static func shownMark(_ mark: String?, width: Int) -> String? {
        mark.map { TerminalText.clean($0, width: max(0, width / 2)) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The tabs with their titles when they fit beside the mark, the name (at least 4 columns
    /// of it) and the store, else with `shortTabs`; the brand only when everything fits.
    private static func layout(tabs: [String], shortTabs: [String], width: Int, name: String, place: String, mark: String?) -> Layout {
        let full = tabs.enumerated().map { " \($0.offset + 1) \($0.element) " }
        // Where the store must show, the name keeps up to 12 columns beside it (as `draw` gives it).
        let place = placeRoom(place, width: width)
        let markRoom = mark.map { $0.displayWidth + 2 } ?? 0
        let nameRoom = (name.isEmpty ? 0 : 2 + min(place == 0 ? 4 : 12, name.displayWidth)) + place + markRoom
        let fits = 1 + full.reduce(0) { $0 + $1.displayWidth } + nameRoom + 1 <= width
        let labels =
            fits || shortTabs.count != tabs.count ? full : shortTabs.enumerated().map { " \($0.offset + 1) \($0.element) " }
        let tabsWidth = labels.reduce(0) { $0 + $1.displayWidth }
        let brandWidth = brand.displayWidth + 2
        let showBrand = 1 + brandWidth + tabsWidth + (name.isEmpty ? 0 : 2 + name.displayWidth) + place + markRoom + 1 <= width
        var x = 1 + (showBrand ? brandWidth : 0)
        let ranges = labels.map { label in
            defer { x += label.displayWidth }
            return x..<(x + label.displayWidth)
        }
        return Layout(showBrand: showBrand, labels: labels, tabs: ranges)
    }

    /// `text` in `width` columns, a `…` for its middle where it is longer.
    static func middleCut(_ text: String, toWidth width: Int) -> String {
        guard text.displayWidth > width else { return text }
        // A server's port (and mark), a directory's last folder: the end that names it.
        let end = (text.lastIndex(of: ":") ?? text.lastIndex(of: "/")).map { String(text[$0...]) }
        let tail = end.flatMap { $0.displayWidth <= width - 1 ? $0 : nil } ?? String(text.suffix(min(8, text.count / 2)))
        return TerminalText.truncate(text, toWidth: max(1, width - tail.displayWidth), ellipsis: true) + tail
    }

    /// The tab under column `x`, if any.
    public static func tab(
        atColumn x: Int, tabs: [String], shortTabs: [String] = [], width: Int, userName: String?, place: String? = nil,
        mark: String? = nil
    ) -> Int? {
        let name = userName.map { TerminalText.clean($0, width: 30) } ?? ""
        let place = place.map { TerminalText.clean($0, width: 60) } ?? ""
        return layout(tabs: tabs, shortTabs: shortTabs, width: width, name: name, place: place, mark: shownMark(mark, width: width))
            .tabs.firstIndex { $0.contains(x) }
    }

    /// Draws the bar. `mark` (e.g. the writes waiting) sits at the right edge. `place` (the
    /// store: a data directory, a server) goes before the name, always from `placeWidth`
    /// columns; `context` (counts) between them, as much of it as fits, its first parts
    /// dropped first. `nameMark` (that the server cannot be reached, which the place names
    /// too) goes before the name where the place is not drawn.
    public static func draw(
        in canvas: inout some Canvas,
        row: Int,
        tabs: [String],
        shortTabs: [String] = [],
        selectedTab: Int,
        userName: String?,
        mark: String? = nil,
        place: String? = nil,
        context: [String] = [],
        nameMark: String? = nil
    ) {
        let width = canvas.size.width
        canvas.fill(Rect(x: 0, y: row, width: width, height: 1), style: .header)
        let plainName = userName.map { TerminalText.clean($0, width: 30) } ?? ""
        let name = (nameMark.map { $0 + " " } ?? "") + plainName
        let place = place.map { TerminalText.clean($0, width: 60) } ?? ""
        let mark = shownMark(mark, width: width)
        let layout = layout(tabs: tabs, shortTabs: shortTabs, width: width, name: name, place: place, mark: mark)
        if layout.showBrand {
            canvas.draw(brand, x: 1, y: row, style: .header)
        }
        for (index, range) in layout.tabs.enumerated() {
            canvas.draw(layout.labels[index], x: range.lowerBound, y: row, style: index == selectedTab ? .activeTab : .header)
        }
        var right = width - 1
        if let mark {
            right -= mark.displayWidth
            canvas.draw(mark, x: right, y: row, style: .activeTab)
            right -= 2
        }
        let left = layout.tabs.last?.upperBound ?? (layout.showBrand ? 1 + brand.displayWidth : 1)
        let room = right - left - 1
        guard !name.isEmpty, room >= 4 else { return }
        // The name gives way to the store where the store must show (for up to 16 columns of
        // it), down to 12 columns; the store is cut in its middle past that.
        let needed = placeRoom(place, width: width) == 0 ? 0 : min(placeRoom(place, width: width), 19) + 2
        let nameWidth = needed == 0 ? room : max(min(12, room), room - needed)
        var shown = TerminalText.truncate(name, toWidth: nameWidth)
        var parts = contextParts(place: place, context: context, width: width, room: room - shown.displayWidth - 3 - 2)
        if nameMark != nil, !place.isEmpty, !parts.isEmpty {
            // The place is drawn (first), and says it: the name goes without the mark.
            shown = TerminalText.truncate(plainName, toWidth: nameWidth)
            parts = contextParts(place: place, context: context, width: width, room: room - shown.displayWidth - 3 - 2)
        }
        canvas.draw(shown, x: right - shown.displayWidth, y: row, style: .header)
        guard !parts.isEmpty else { return }
        let text = parts.joined(separator: " · ") + " · "
        canvas.draw(text, x: right - shown.displayWidth - text.displayWidth, y: row, style: .header)
    }

    /// What goes between the tabs and the name in `room` columns (two from the tabs, three,
    /// ` · `, from the name): the counts first, the first of them first; the store last.
    private static func contextParts(place: String, context: [String], width: Int, room: Int) -> [String] {
        var counts = context.map { TerminalText.clean($0, width: 60) }.filter { !$0.isEmpty }
        func parts() -> [String] { (place.isEmpty ? [] : [place]) + counts }
        while !counts.isEmpty, parts().joined(separator: " · ").displayWidth > room { counts.removeFirst() }
        let parts = parts()
        guard parts.joined(separator: " · ").displayWidth > room else { return parts }
        // The store alone, shortened in its middle: its end (the port, ● or ⚠) says most.
        return width >= placeWidth && room >= 8 ? [middleCut(place, toWidth: room)] : []
    }
}
