import Testing

/// Keeps the tests that hold the process's resident memory to a bound apart from those that
/// build large data in memory (a 100 k catalog, its brute-force orders): the process's
/// high-water mark is one for every test running in it, so a measurement waits until no
/// large build runs, and holds new ones off from the moment it asks (so it waits for one
/// test of a large suite at most, not for the whole suite). Other tests go on as usual.
public actor MemoryGate {
    /// Test support: one gate for the test process, as the memory it guards is one.
    public static let process = MemoryGate()

    private var builds = 0
    private var measuring = false
    /// Measurements asked for and not yet done: no new build starts meanwhile.
    private var measures = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func beginBuild() async {
        while measures > 0 { await wait() }
        builds += 1
    }

    func endBuild() {
        builds -= 1
        wakeAll()
    }

    func beginMeasure() async {
        measures += 1
        while measuring || builds > 0 { await wait() }
        measuring = true
    }

    func endMeasure() {
        measuring = false
        measures -= 1
        wakeAll()
    }

    private func wait() async {
        await withCheckedContinuation { waiting.append($0) }
    }

    private func wakeAll() {
        let woken = waiting
        waiting = []
        woken.forEach { $0.resume() }
    }
}

/// A test or suite that builds large data in memory (`MemoryGate`).
public struct BuildsLargeData: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite itself runs no body of its own: its tests take the gate one by one.
        guard testCase != nil || !test.isSuite else { return try await function() }
        await MemoryGate.process.beginBuild()
        do {
            try await function()
        } catch {
            await MemoryGate.process.endBuild()
            throw error
        }
        await MemoryGate.process.endBuild()
    }
}

/// A test that holds the process's resident memory to a bound (`MemoryGate`).
public struct MeasuresMemory: TestTrait, TestScoping {
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await MemoryGate.process.beginMeasure()
        do {
            try await function()
        } catch {
            await MemoryGate.process.endMeasure()
            throw error
        }
        await MemoryGate.process.endMeasure()
    }
}

extension Trait where Self == BuildsLargeData {
    /// Builds large data in memory: no memory measurement runs meanwhile.
    public static var buildsLargeData: Self { BuildsLargeData() }
}

extension Trait where Self == MeasuresMemory {
    /// Measures the process's memory: waits for the large builds to end, and holds new ones off.
    public static var measuresMemory: Self { MeasuresMemory() }
}
