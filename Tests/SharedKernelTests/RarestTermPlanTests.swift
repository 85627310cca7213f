import SharedKernel
import Testing

@Suite("The rarest-term plan: which term of a search a page walks, counted once in a while")
struct RarestTermPlanTests {
    @Test("the terms without a kept count are counted, the rarest put first, and the counts kept")
    func countsMissingTerms() throws {
        let (sut, start) = makeSUT(kept: ["swift": 10_000])
        var asked: [[String]] = []

        let order = sut.rarestFirst(["swift", "#free"], now: start) { missing in
            asked.append(missing)
            return ["#free": 75]
        }

        #expect(order == ["#free", "swift"])
        #expect(asked == [["#free"]], "only the term without a count is counted")
        #expect(sut.counts(of: ["#free"], now: start) == ["#free": 75])
    }

    @Test("a plan whose terms are all counted lately counts nothing")
    func keptCountsAreUsed() {
        let (sut, start) = makeSUT(kept: ["data": 40, "#free": 9])
        var asked: [[String]] = []

        let order = sut.rarestFirst(["data", "#free"], now: start + .seconds(1)) { missing in
            asked.append(missing)
            return [:]
        }

        #expect(order == ["#free", "data"])
        #expect(asked == [])
    }

    @Test("a count past its lifetime is counted again")
    func staleCountsAreCountedAgain() {
        let (sut, start) = makeSUT(kept: ["data": 40, "#free": 9])
        var asked: [[String]] = []

        let order = sut.rarestFirst(["data", "#free"], now: start + TermCounts.lifetime) { missing in
            asked.append(missing)
            return ["data": 3, "#free": 9]
        }

        #expect(order == ["data", "#free"])
        #expect(asked == [["data", "#free"]])
    }

    @Test("one term, or none, needs no count: it is the plan")
    func singleTermIsNotCounted() {
        let (sut, start) = makeSUT()
        var asked = 0

        let one = sut.rarestFirst(["swift"], now: start) { _ in
            asked += 1
            return [:]
        }
        let none = sut.rarestFirst([], now: start) { _ in
            asked += 1
            return [:]
        }

        #expect(one == ["swift"])
        #expect(none == [])
        #expect(asked == 0)
    }

    @Test("a term the counting left out is as common as the bound; equal counts keep the query's order")
    func uncountedTermIsCommon() {
        let (sut, start) = makeSUT()

        let order = sut.rarestFirst(["data", "fund", "#free"], now: start) { _ in ["#free": 40] }

        #expect(order == ["#free", "data", "fund"])
    }

    @Test("a counting that fails keeps nothing and fails the plan")
    func failedCountKeepsNothing() {
        let (sut, start) = makeSUT()

        #expect(throws: CountFailed.self) {
            try sut.rarestFirst(["data", "#free"], now: start) { _ throws(CountFailed) in throw CountFailed() }
        }
        #expect(sut.counts(of: ["data", "#free"], now: start) == [:])
    }

    @Test("a store that counts asynchronously gets the same plan, counted once")
    func asynchronousCounting() async {
        let (sut, start) = makeSUT(kept: ["swift": 10_000])
        let asked = AskedTerms()

        let first = await sut.rarestFirst(["swift", "#free"], now: start) { missing in
            await asked.note(missing)
            return ["#free": 75]
        }
        let second = await sut.rarestFirst(["swift", "#free"], now: start + .seconds(1)) { missing in
            await asked.note(missing)
            return [:]
        }

        #expect(first == ["#free", "swift"])
        #expect(second == ["#free", "swift"])
        #expect(await asked.terms == [["#free"]])
    }

    // MARK: - Helpers

    private func makeSUT(kept: [String: Int] = [:]) -> (TermCounts, ContinuousClock.Instant) {
        let counts = TermCounts()
        let start = ContinuousClock.now
        counts.keep(kept, now: start)
        return (counts, start)
    }

    private struct CountFailed: Error {}

    private actor AskedTerms {
        private(set) var terms: [[String]] = []

        func note(_ missing: [String]) { terms.append(missing) }
    }
}
