import Testing

@testable import Terminal

/// Frame marks are for a test's terminal only: written when asked for exactly, never by
/// accident of another setting.
@Suite("Terminal: options from the environment")
struct TerminalOptionsTests {
    @Test(
        "frame marks only with EDUGO_FRAME_MARKS=1",
        arguments: [
            ([:], false),
            (["EDUGO_FRAME_MARKS": "1"], true),
            (["EDUGO_FRAME_MARKS": "0"], false),
            (["EDUGO_FRAME_MARKS": ""], false),
            (["EDUGO_FRAME_MARKS": "yes"], false),
        ])
    func frameMarks(environment: [String: String], expected: Bool) {
        #expect(TerminalOptions(environment: ["TERM": "xterm"].merging(environment) { $1 }).frameMarks == expected)
    }
}
