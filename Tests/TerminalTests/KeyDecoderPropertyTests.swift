import CNcurses
import PropertyBased
import Terminal
import TerminalUI
import Testing

/// Whatever the terminal sends, decoding never crashes, never yields more events than inputs,
/// and never lets a control character through as text.
@Suite("Key decoding, random input")
struct KeyDecoderPropertyTests {
    /// Bytes that start or continue escape sequences, so random batches hit those paths often.
    static let escapeAlphabet: [UInt32] = [0x1B, 0x5B, 0x4F, 0x41, 0x42, 0x43, 0x44, 0x48, 0x46, 0x5A, 0x7E, 0x31, 0x33, 0x35, 0x36, 0x37, 0x38, 0x61, 0x7F, 0x0D, 0x09, 0x03]

    @Test("any batch of raw input decodes to at most one event per input, with no control text")
    func anyBatch() async {
        await propertyCheck(count: 500, input: Gen.uint64(in: 0...UInt64.max).array(of: 0...40)) { values in
            let batch = values.map(Self.rawInput)

            let events = KeyDecoder().decode(batch)

            #expect(events.count <= batch.count)
            for event in events {
                if case .key(.character(let character)) = event {
                    #expect(!character.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }, "\(character.debugDescription)")
                }
            }
        }
    }

    @Test("escape-heavy batches decode without crashing, and the events keep a text field whole")
    func escapeHeavy() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...(Self.escapeAlphabet.count - 1)).array(of: 0...30)) { choices in
            let batch = choices.map { RawInput.character(Self.escapeAlphabet[$0]) }
            var field = TextField()

            for event in KeyDecoder().decode(batch) {
                if case .key(let key) = event { _ = field.handle(key) }
            }

            #expect(field.cursor >= 0 && field.cursor <= field.text.count)
            #expect(!field.text.contains("\u{1B}"))
        }
    }

    @Test("printable text decodes to exactly its characters")
    func printableText() async {
        await propertyCheck(count: 300, input: Gen.uint32(in: 0x20...0x2FFFF).array(of: 0...30)) { values in
            let scalars = values.compactMap(Unicode.Scalar.init).filter { $0.value != 0x7F && !(0x80..<0xA0).contains($0.value) }

            let events = KeyDecoder().decode(scalars.map { .character($0.value) })

            #expect(events == scalars.map { .key(.character(Character($0))) })
        }
    }

    /// Spreads one random number over the three kinds of raw input and their whole ranges,
    /// including code points that are not valid scalars.
    static func rawInput(_ value: UInt64) -> RawInput {
        switch value % 4 {
        case 0: .keyCode(Int32(truncatingIfNeeded: value >> 2) % 0o1000)
        case 1: .mouse(x: Int((value >> 2) % 500), y: Int((value >> 11) % 500), buttons: UInt(truncatingIfNeeded: value >> 20))
        case 2: .character(UInt32(truncatingIfNeeded: value >> 2) % 0x11_0010)
        default: .character(UInt32(truncatingIfNeeded: value >> 2))
        }
    }
}
