import CNcurses
import Foundation
import Presentation
import TerminalUI
import Testing

@Suite("TerminalUI measures text exactly as ncursesw draws it")
struct DisplayWidthAgreementTests {
    @Test("every printable code point has the width glibc's wcwidth gives it")
    func agreesWithWcwidth() throws {
        // C.UTF-8 for this thread alone (`uselocale`): `setlocale` changes the whole process
        // while other suites run beside this one, and glibc marks it unsafe there. The loop
        // below never suspends, so it stays on this thread.
        let utf8 = try #require(newlocale(LC_CTYPE_MASK, "C.UTF-8", nil))
        let previous = uselocale(utf8)
        defer {
            uselocale(previous)
            freelocale(utf8)
        }
        // The locale took: a CJK ideograph is two columns wide (in "C" it is not measured).
        try #require(wcwidth(0x4E00) == 2)

        var mismatches: [String] = []
        for value in UInt32(0x20)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), !(0x7F..<0xA0).contains(value) else { continue }
            let expected = Int(wcwidth(wchar_t(truncatingIfNeeded: value)))
            // wcwidth says -1 for unassigned and non-printing code points; data text never
            // reaches the screen with those measured as anything but 0 or 1.
            guard expected >= 0 else { continue }
            if scalar.terminalWidth != expected {
                mismatches.append(String(value, radix: 16))
                if mismatches.count > 20 { break }
            }
        }

        #expect(mismatches.isEmpty, "widths differ from wcwidth for U+\(mismatches.joined(separator: ", U+"))")
    }
}
