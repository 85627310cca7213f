import CNcurses
import Presentation
import TerminalUI

/// Maps each `Style` to ncurses attributes by a theme: its colours on the terminal's own
/// background (the nearest the terminal has), or attributes alone (`Theme.mono`) when colour
/// is off, whatever theme was chosen.
struct TerminalPalette {
    struct Attributes {
        var attributes: attr_t
        var pair: Int16
    }

    private let table: [Style: Attributes]

    /// Sets up colour pairs when `useColor` is true (call after `start_color`); `colors` is
    /// how many the terminal has.
    init(theme: Theme, useColor: Bool, colors: Int) {
        let bold = edugo_a_bold()
        let dim = edugo_a_dim()
        let reverse = edugo_a_reverse()
        let underline = edugo_a_underline()
        // Emphasis is italic where the terminal can show it (call after newterm), else
        // underlined rather than lost.
        let italic = term_attrs() & edugo_a_italic() != 0 ? edugo_a_italic() : underline
        let theme = useColor ? theme : .mono
        var table: [Style: Attributes] = [:]
        var pairs: [PairKey: Int16] = [:]
        for style in Style.allCases {
            let entry = theme[style]
            var attributes: attr_t = 0
            if entry.bold { attributes |= bold }
            if entry.dim { attributes |= dim }
            if entry.reverse { attributes |= reverse }
            if entry.underline { attributes |= underline }
            if entry.italic { attributes |= italic }
            var pair: Int16 = 0
            if useColor, entry.isColoured {
                // -1 is the terminal's default colour (use_default_colors).
                let key = PairKey(
                    foreground: Int16(entry.foreground.index(among: colors) ?? -1),
                    background: Int16(entry.background.index(among: colors) ?? -1))
                if let known = pairs[key] {
                    pair = known
                } else {
                    pair = Int16(pairs.count + 1)
                    init_pair(pair, key.foreground, key.background)
                    pairs[key] = pair
                }
            }
            table[style] = Attributes(attributes: attributes, pair: pair)
        }
        self.table = table
    }

    private struct PairKey: Hashable {
        var foreground: Int16
        var background: Int16
    }

    subscript(style: Style) -> Attributes {
        table[style] ?? Attributes(attributes: 0, pair: 0)
    }
}
