import EduGoAPI
import Foundation
import OpenAPIRuntime

/// An event stream's bytes as OpenAPIRuntime's `asEncodedServerSentEventsWithJSONData` writes
/// them, byte for byte (`id`, `event`, `retry`, the data's lines, then a blank line; a lone line
/// break for a keep-alive), with the events already at hand in one write. Its encoder scrubs
/// every field of line breaks with a generic `replacingOccurrences` and writes each event on its
/// own: 25 % of a server's samples with 50 streams open, 15 % in the scrubbing (BENCHMARKS.md,
/// "Writes beside event streams").
struct ServerSentEventBytes: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let events: EventStream

    func makeAsyncIterator() -> Iterator {
        Iterator(events: events.makeAsyncIterator())
    }

    struct Iterator: AsyncIteratorProtocol {
        var events: EventStream.Iterator
        private let encoder = ServerSentEventBytes.encoder()

        init(events: EventStream.Iterator) {
            self.events = events
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard let first = await events.next() else { return nil }
            var bytes: [UInt8] = []
            try ServerSentEventBytes.append(first, to: &bytes, encoder: encoder)
            while let more = events.nextAtHand() {
                try ServerSentEventBytes.append(more, to: &bytes, encoder: encoder)
            }
            return bytes[...]
        }
    }

    /// The JSON of an event's data as OpenAPIRuntime encodes it.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// One event: a field a line, `id` and `event` without line breaks, the data a `data`
    /// line for each of its lines (CR LF, CR and LF each end one), then a blank line.
    static func append(_ event: EventStream.Element, to bytes: inout [UInt8], encoder: JSONEncoder) throws {
        func field(_ name: String, _ value: some Sequence<UInt8>) {
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: value)
            bytes.append(lineFeed)
        }
        if let id = event.id { field("id", id.utf8.lazy.filter { $0 != lineFeed && $0 != carriageReturn }) }
        if let name = event.event { field("event", name.utf8.lazy.filter { $0 != lineFeed && $0 != carriageReturn }) }
        if let retry = event.retry { field("retry", String(retry).utf8) }
        if let data = event.data {
            let json = try encoder.encode(data)
            var line: [UInt8] = []
            var previous: UInt8 = 0
            for byte in json {
                defer { previous = byte }
                if byte == lineFeed, previous == carriageReturn { continue }
                if byte == lineFeed || byte == carriageReturn {
                    field("data", line)
                    line.removeAll(keepingCapacity: true)
                } else {
                    line.append(byte)
                }
            }
            field("data", line)
        }
        bytes.append(lineFeed)
    }

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
}
