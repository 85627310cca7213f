import SharedKernel
import Testing

@Suite("Term counts: the rarest term of a search is the one walked")
struct TermCountsTests {
    @Test("the rarest first, a term never counted as common as the bound, equal counts in the query's order")
    func rarestFirst() {
        // `swift is:free` at 1 M: 75 free courses, the word's list past the bound.
        #expect(TermCounts.rarestFirst(["swift", "#free"], counts: ["swift": 10_000, "#free": 75]) == ["#free", "swift"])
        #expect(
            TermCounts.rarestFirst(["kubernetes", "#lvladvanced"], counts: ["kubernetes": 312, "#lvladvanced": 10_000]) == [
                "kubernetes", "#lvladvanced",
            ])
        #expect(TermCounts.rarestFirst(["data", "fund", "#free"], counts: ["#free": 40]) == ["#free", "data", "fund"])
        #expect(TermCounts.rarestFirst(["data", "fund"], counts: ["data": 9, "fund": 9]) == ["data", "fund"])
    }

    @Test("a count is trusted for its lifetime, then counted again; a full table starts again")
    func lifetime() {
        let counts = TermCounts()
        let start = ContinuousClock.now
        counts.keep(["#free": 75, "swift": 10_000], now: start)

        #expect(counts.counts(of: ["#free", "swift", "data"], now: start + .seconds(10)) == ["#free": 75, "swift": 10_000])
        #expect(counts.counts(of: ["#free"], now: start + TermCounts.lifetime) == [:])

        counts.keep(Dictionary(uniqueKeysWithValues: (0..<TermCounts.capacity).map { ("t\($0)", $0) }), now: start)
        #expect(counts.counts(of: ["#free", "t1"], now: start) == ["t1": 1], "the table started again")
    }
}
