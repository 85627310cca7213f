/// The bytes of an event stream, passed on as they come, but no event longer than `limit`:
/// an event is the lines up to an empty one, and a server that never ends one (an endless
/// line, lines without end) is cut off there, so what the decoder holds for an event stays
/// under the limit whatever the server sends.
struct EventSizeLimit<Upstream: AsyncSequence & Sendable>: AsyncSequence, Sendable where Upstream.Element == ArraySlice<UInt8> {
    typealias Element = ArraySlice<UInt8>

    let upstream: Upstream
    let limit: Int

    func makeAsyncIterator() -> Iterator {
        Iterator(upstream: upstream.makeAsyncIterator(), limit: limit)
    }

    struct Iterator: AsyncIteratorProtocol {
        var upstream: Upstream.AsyncIterator
        let limit: Int
        /// Bytes of the event and of the line so far (line ends not counted).
        private var eventLength = 0
        private var lineLength = 0
        /// The last byte was a carriage return, whose line feed (if one comes) ends the same line.
        private var afterReturn = false

        init(upstream: Upstream.AsyncIterator, limit: Int) {
            self.upstream = upstream
            self.limit = limit
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard let chunk = try await upstream.next() else { return nil }
            for byte in chunk {
                switch byte {
                case UInt8(ascii: "\n") where afterReturn:
                    afterReturn = false
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    afterReturn = byte == UInt8(ascii: "\r")
                    // An empty line ends the event.
                    if lineLength == 0 { eventLength = 0 }
                    lineLength = 0
                default:
                    afterReturn = false
                    lineLength += 1
                    eventLength += 1
                    guard eventLength <= limit else { throw EventTooLong(limit: limit) }
                }
            }
            return chunk
        }
    }
}

/// An event of the stream went past the size any event of the API has.
struct EventTooLong: Error, CustomStringConvertible {
    let limit: Int
    var description: String { "an event longer than \(limit) bytes" }
}
