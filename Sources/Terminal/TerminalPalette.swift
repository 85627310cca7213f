import CNcurses
import TerminalUI

/// Maps each `Style` to ncurses attributes: colours on the terminal's own background, chosen
/// to read on light and dark themes, or attributes alone when colour is off.
struct TerminalPalette {
    struct Attributes {
        var attributes: attr_t
        var pair: Int16
    }

    private let table: [Style: Attributes]

    /// Sets up colour pairs when `useColor` is true (call after `start_color`).
    init(useColor: Bool) {
        let bold = edugo_a_bold()
        let dim = edugo_a_dim()
        let reverse = edugo_a_reverse()
        guard useColor else {
            table = [
                .normal: Attributes(attributes: 0, pair: 0),
                .dim: Attributes(attributes: dim, pair: 0),
                .bold: Attributes(attributes: bold, pair: 0),
                .accent: Attributes(attributes: bold, pair: 0),
                .selection: Attributes(attributes: reverse, pair: 0),
                .header: Attributes(attributes: reverse, pair: 0),
                .activeTab: Attributes(attributes: bold, pair: 0),
                .error: Attributes(attributes: bold, pair: 0),
                .success: Attributes(attributes: bold, pair: 0),
                .key: Attributes(attributes: bold, pair: 0),
            ]
            return
        }
        // -1 is the terminal's default colour (use_default_colors).
        let pairs: [(Style, Int16, Int16, attr_t)] = [
            (.accent, Int16(COLOR_MAGENTA), -1, bold),
            (.selection, Int16(COLOR_BLACK), Int16(COLOR_CYAN), 0),
            (.header, Int16(COLOR_WHITE), Int16(COLOR_BLUE), 0),
            (.activeTab, Int16(COLOR_BLUE), Int16(COLOR_WHITE), bold),
            (.error, Int16(COLOR_RED), -1, bold),
            (.success, Int16(COLOR_GREEN), -1, bold),
        ]
        var table: [Style: Attributes] = [
            .normal: Attributes(attributes: 0, pair: 0),
            .dim: Attributes(attributes: dim, pair: 0),
            .bold: Attributes(attributes: bold, pair: 0),
            .key: Attributes(attributes: bold, pair: 0),
        ]
        for (number, (style, foreground, background, attributes)) in pairs.enumerated() {
            let pair = Int16(number + 1)
            init_pair(pair, foreground, background)
            table[style] = Attributes(attributes: attributes, pair: pair)
        }
        self.table = table
    }

    subscript(style: Style) -> Attributes {
        table[style] ?? Attributes(attributes: 0, pair: 0)
    }
}
