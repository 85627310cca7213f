import Testing

@testable import Terminal

/// OSC 8 hyperlinks go only to terminals known to show them, and carry only web and mail
/// addresses, encoded so that nothing in them can end the sequence.
@Suite("Terminal: OSC 8 hyperlinks")
struct HyperlinksTests {
    @Test(
        "sent where the terminal is known to show them, or when told; never inside tmux or screen, nor on the console",
        arguments: [
            (["TERM": "xterm-kitty"], true),
            (["TERM": "foot"], true),
            (["TERM": "alacritty"], true),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], true),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], true),
            (["TERM": "xterm-256color", "VTE_VERSION": "7600"], true),
            (["TERM": "xterm-256color", "VTE_VERSION": "4803"], false),
            (["TERM": "xterm-256color", "WT_SESSION": "1f2e"], true),
            (["TERM": "xterm-256color", "KONSOLE_VERSION": "230805"], true),
            (["TERM": "xterm-256color"], false),
            (["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"], false),
            (["TERM": "screen-256color", "VTE_VERSION": "7600"], false),
            (["TERM": "tmux-256color", "TERM_PROGRAM": "WezTerm"], false),
            (["TERM": "linux"], false),
            (["TERM": "xterm-256color", "EDUGO_HYPERLINKS": "on"], true),
            (["TERM": "tmux-256color", "TMUX": "x", "EDUGO_HYPERLINKS": "1"], true),
            (["TERM": "xterm-kitty", "EDUGO_HYPERLINKS": "off"], false),
            (["TERM": "xterm-kitty", "EDUGO_HYPERLINKS": "auto"], true),
        ])
    func supported(environment: [String: String], expected: Bool) {
        #expect(Hyperlinks.supported(environment: environment) == expected)
        #expect(TerminalOptions(environment: environment).hyperlinks == expected)
    }

    @Test(
        "web and mail addresses only; bytes outside printable ASCII percent-encoded; too long, none",
        arguments: [
            ("https://docs.swift.org/swift-book/", "https://docs.swift.org/swift-book/"),
            ("HTTP://EXAMPLE.ORG", "HTTP://EXAMPLE.ORG"),
            ("mailto:team@edugo.dev", "mailto:team@edugo.dev"),
            ("https://example.org/a b", "https://example.org/a%20b"),
            ("https://example.org/\u{1B}\\x\u{07}", "https://example.org/%1B\\x%07"),
            ("https://example.org/año", "https://example.org/a%C3%B1o"),
            ("file:///etc/passwd", nil),
            ("javascript:alert(1)", nil),
            ("diagram.png", nil),
            ("https://example.org/" + String(repeating: "a", count: 2_100), nil),
        ] as [(String, String?)])
    func address(link: String, expected: String?) {
        #expect(Hyperlinks.address(link) == expected)
    }
}
