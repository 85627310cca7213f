import SharedKernel
import Testing

@Suite("DatabaseUse: what waits for a connection and what holds one")
struct DatabaseUseTests {
    @Test("a call waits, holds (once, however often it says so), and leaves from either state")
    func visits() {
        let use = DatabaseUse()
        let holding = use.arrive()
        let waiting = use.arrive()
        holding.hold()
        holding.hold()
        let during = (use.inUse, use.waiting)
        holding.leave()
        waiting.leave()
        waiting.leave()

        #expect(during == (1, 1))
        #expect(use.inUse == 0 && use.waiting == 0)
    }
}
