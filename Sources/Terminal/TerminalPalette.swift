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
        let underline = edugo_a_underline()
        // Emphasis is italic where the terminal can show it (call after newterm), else
        // underlined rather than lost.
        let italic = term_attrs() & edugo_a_italic() != 0 ? edugo_a_italic() : underline
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
                .heading: Attributes(attributes: bold | underline, pair: 0),
                .emphasis: Attributes(attributes: italic, pair: 0),
                .strong: Attributes(attributes: bold, pair: 0),
                .code: Attributes(attributes: reverse, pair: 0),
                .link: Attributes(attributes: underline, pair: 0),
                .quote: Attributes(attributes: dim, pair: 0),
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
            (.heading, Int16(COLOR_BLUE), -1, bold),
            // Both colours set, so code reads on light and dark themes alike.
            (.code, Int16(COLOR_BLACK), Int16(COLOR_WHITE), 0),
            (.link, Int16(COLOR_BLUE), -1, underline),
        ]
        var table: [Style: Attributes] = [
            .normal: Attributes(attributes: 0, pair: 0),
            .dim: Attributes(attributes: dim, pair: 0),
            .bold: Attributes(attributes: bold, pair: 0),
            .key: Attributes(attributes: bold, pair: 0),
            .emphasis: Attributes(attributes: italic, pair: 0),
            .strong: Attributes(attributes: bold, pair: 0),
            .quote: Attributes(attributes: dim, pair: 0),
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
