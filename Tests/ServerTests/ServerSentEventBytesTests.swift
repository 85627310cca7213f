import EduGoAPI
import Foundation
import OpenAPIRuntime
import Testing

@testable import Server

@Suite("Server-sent events' bytes")
struct ServerSentEventBytesTests {
    typealias Event = EventStream.Element

    /// Every shape of event the streams send, and fields no stream of ours sends (line breaks in
    /// an id and a name, a retry), where OpenAPIRuntime scrubs and splits.
    static let events: [Event] = [
        Event(),
        Event(event: "ready", data: .init(), id: "7.db1"),
        Event(event: "read_everything", data: .init(), id: "8.db1"),
        Event(event: "course", data: .init(courseId: "swift-101"), id: "9.db1"),
        Event(event: "favourite", data: .init(courseId: "a\"b\\c/d\ne\r\nf"), id: "10.db1"),
        Event(event: "x\ny\r\nz\r", data: nil, id: "a\r\nb\rc\nd", retry: 5),
    ]

    @Test("each event is the bytes OpenAPIRuntime's encoder writes for it")
    func sameBytes() async throws {
        let encoder = ServerSentEventBytes.encoder()
        for event in Self.events {
            var ours: [UInt8] = []
            try ServerSentEventBytes.append(event, to: &ours, encoder: encoder)
            var theirs: [UInt8] = []
            let (one, continuation) = AsyncStream.makeStream(of: Event.self)
            continuation.yield(event)
            continuation.finish()
            for try await chunk in one.asEncodedServerSentEventsWithJSONData() {
                theirs += chunk
            }
            #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self))
        }
    }
}
