import Presentation
import PropertyBased
import Terminal
import TerminalUI
import Testing

/// Whatever the terminal sends, decoding never crashes, never yields more events than bytes,
/// never lets a control character through as text, and never holds bytes after a flush.
@Suite("Input decoding, random bytes")
struct InputDecoderPropertyTests {
    /// Bytes that start or continue escape sequences, so random input hits those paths often.
    static let escapeAlphabet: [UInt8] = Array("\u{1B}[O<;M~mABCDHFZ0123456789aq\r\t".utf8) + [0x7F, 0x03, 0xC3, 0xA9, 0xE5, 0xB1, 0xB1]

    @Test("any bytes, in any split, decode to at most one event per byte with no control text")
    func anyBytes() async {
        await propertyCheck(count: 500, input: Gen.uint8(in: 0...255).array(of: 0...60), Gen.int(in: 0...60)) { bytes, split in
            var sut = InputDecoder()
            let cut = min(split, bytes.count)

            let events = sut.feed(bytes[..<cut]) + sut.feed(bytes[cut...]) + sut.flush()

            #expect(events.count <= bytes.count)
            #expect(!sut.hasPending)
            for case .key(.character(let character)) in events {
                #expect(
                    !character.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) },
                    "\(character.debugDescription)")
            }
        }
    }

    @Test("escape-heavy input decodes without crashing and keeps a text field whole")
    func escapeHeavy() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...(Self.escapeAlphabet.count - 1)).array(of: 0...40)) { choices in
            var sut = InputDecoder()
            var field = TextField()

            for event in sut.feed(choices.map { Self.escapeAlphabet[$0] }) + sut.flush() {
                if case .key(let key) = event { _ = field.handle(key) }
            }

            #expect(field.cursor >= 0 && field.cursor <= field.text.count)
            #expect(!field.text.contains("\u{1B}"))
        }
    }

    @Test("printable text decodes to exactly its characters, however it is split")
    func printableText() async {
        await propertyCheck(count: 300, input: Gen.uint32(in: 0x20...0x2FFFF).array(of: 0...30), Gen.int(in: 0...200)) { values, split in
            let scalars = values.compactMap(Unicode.Scalar.init).filter { $0.value != 0x7F && !(0x80..<0xA0).contains($0.value) }
            let bytes = Array(String(String.UnicodeScalarView(scalars)).utf8)
            let cut = min(split, bytes.count)
            var sut = InputDecoder()

            let events = sut.feed(bytes[..<cut]) + sut.feed(bytes[cut...])

            #expect(events == scalars.map { .key(.character(Character($0))) })
        }
    }
}
