import Testing

@testable import PostgresStore

@Suite("Calls past their limit, watched by one task for all")
struct CallDeadlinesTests {
    @Test("each call past its limit is told, in the order they started; the watch ends with the last call and starts again with the next")
    func expiry() async {
        let deadlines = CallDeadlines(limit: .milliseconds(5))
        for _ in 0..<2 {  // the second round finds the first round's watch ended
            let (told, tell) = AsyncStream<String>.makeStream()
            let first = deadlines.add { tell.yield("first") }
            let second = deadlines.add { tell.yield("second") }
            var heard = told.makeAsyncIterator()
            #expect(await heard.next() == "first")
            #expect(await heard.next() == "second")
            deadlines.remove(first)
            deadlines.remove(second)
        }
    }
}
