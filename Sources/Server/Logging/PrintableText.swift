/// Text from data made safe for a terminal or a log: control and format characters (escape
/// sequences' ESC, bidi overrides, zero-width characters) are dropped.
public enum PrintableText {
    public static func make(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format: false
            default: true
            }
        }))
    }
}
