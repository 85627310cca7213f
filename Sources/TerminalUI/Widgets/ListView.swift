import Presentation

/// Draws a list into a rectangle, touching only the visible rows, and maps mouse events
/// back to rows.
public enum ListView {
    /// Calls `drawRow` once per visible row with the item index, the row's rectangle and
    /// whether it is selected. Selected rows are pre-filled with the selection style.
    public static func draw<C: Canvas>(
        in canvas: inout C,
        area: Rect,
        itemCount: Int,
        state: ListState,
        drawRow: (inout C, _ index: Int, _ row: Rect, _ isSelected: Bool) -> Void
    ) {
        let range = state.visibleRange(itemCount: itemCount, height: area.height)
        for (line, index) in range.enumerated() {
            let row = Rect(x: area.x, y: area.y + line, width: area.width, height: 1)
            let isSelected = index == state.selectedIndex
            if isSelected {
                canvas.fill(row, style: .selection)
                canvas.markFocus(x: row.x, y: row.y)
            }
            drawRow(&canvas, index, row, isSelected)
        }
    }
}
