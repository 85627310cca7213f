/// OSC 8 hyperlinks (`ESC ] 8 ; ; URL ESC \`): which terminals get them, and which addresses.
/// A terminal that does not know the sequence may print it, so they are sent only to those
/// known to show them, or when the user says so.
public enum Hyperlinks {
    /// `EDUGO_HYPERLINKS=on` (or `1`) and `off` (or `0`) decide; otherwise (`auto`) the
    /// terminal's own variables: kitty, WezTerm, iTerm2, foot, Alacritty, Ghostty, VS Code,
    /// Windows Terminal, GNOME Terminal and other VTE terminals from 0.50, Konsole from 20.04.
    /// Never inside tmux or screen, which may not pass them on (tmux before 3.4 does not), nor
    /// on the Linux console.
    public static func supported(environment: [String: String]) -> Bool {
        switch environment["EDUGO_HYPERLINKS"]?.lowercased() {
        case "on", "1", "yes", "true": return true
        case "off", "0", "no", "false": return false
        default: break
        }
        let term = environment["TERM"] ?? ""
        if environment["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") || term == "linux" || term == "dumb" {
            return false
        }
        if ["xterm-kitty", "xterm-ghostty", "wezterm"].contains(term) || term.hasPrefix("foot") || term.hasPrefix("alacritty") {
            return true
        }
        if ["iTerm.app", "WezTerm", "vscode", "ghostty"].contains(environment["TERM_PROGRAM"] ?? "") { return true }
        if environment["WT_SESSION"] != nil { return true }
        if let vte = environment["VTE_VERSION"].flatMap(Int.init), vte >= 5000 { return true }
        if let konsole = environment["KONSOLE_VERSION"].flatMap(Int.init), konsole >= 200_400 { return true }
        return false
    }

    /// Longest address sent: terminals keep about 2 KiB of one (longer ones stay listed only).
    static let maximumLength = 2_048

    /// The address as an OSC 8 hyperlink carries it: web and mail addresses only (a lesson's
    /// `file:` or `javascript:` link stays listed, never clickable); every byte outside
    /// printable ASCII percent-encoded, so nothing in it can end the sequence. `nil` when it
    /// is not sent.
    public static func address(_ link: String) -> String? {
        let lowered = link.lowercased()
        guard ["http://", "https://", "mailto:"].contains(where: lowered.hasPrefix) else { return nil }
        var encoded = ""
        for byte in link.utf8 {
            if byte > 0x20, byte < 0x7F {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
            guard encoded.utf8.count <= maximumLength else { return nil }
        }
        return encoded
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
