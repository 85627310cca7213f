import CNcurses
import Presentation
import TerminalUI

/// A canvas that writes straight into ncurses' virtual screen; `doupdate` then sends only
/// the cells that changed since the last frame.
public struct NcursesCanvas: Canvas {
    public let size: Size
    let window: UnsafeMutablePointer<WINDOW>
    let palette: TerminalPalette
    public private(set) var cursor: (x: Int, y: Int)?
    /// The cells marked as links in this frame, made hyperlinks once it is sent.
    public private(set) var links: [LinkMark] = []

    init(size: Size, window: UnsafeMutablePointer<WINDOW>, palette: TerminalPalette) {
        self.size = size
        self.window = window
        self.palette = palette
    }

    public mutating func write(_ text: String, x: Int, y: Int, style: Style) {
        guard y >= 0, y < size.height, x >= 0, x < size.width, !text.isEmpty else { return }
        if !links.isEmpty { links.cover(x: x, y: y, width: text.displayWidth) }
        let attributes = palette[style]
        wattr_set(window, attributes.attributes, attributes.pair, nil)
        var wide = text.unicodeScalars.map { wchar_t(truncatingIfNeeded: $0.value) }
        wide.append(0)
        // Errors here only mean "wrote into the last cell"; the cell is drawn all the same.
        _ = mvwaddnwstr(window, Int32(y), Int32(x), wide, Int32(wide.count - 1))
    }

    public mutating func setCursor(_ position: (x: Int, y: Int)?) {
        cursor = position
    }

    public mutating func markLink(_ address: String, x: Int, y: Int, width: Int) {
        links.mark(address, x: x, y: y, width: width, within: size)
    }
}
