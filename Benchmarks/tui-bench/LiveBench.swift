import Foundation

/// Issue 24: how long a change made elsewhere (another terminal, process or client) takes to
/// be drawn in a running app that nobody touches, and how long `r` takes to read it instead.
struct LiveFigures {
    /// From the write's commit to the end of the frame that shows it.
    var committedToDrawn: [Double] = []
    /// From the start of the write to the end of that frame.
    var writeToDrawn: [Double] = []
    /// Changes no frame followed within the time limit.
    var missed = 0
    /// `r` on the catalog, to the end of its frame.
    var reload: [Double] = []
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.filter { !$0.isNaN }.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

/// Runs the app with `arguments` (signed in, catalog of `size`), then makes `changes` writes
/// through `write` (a favourite of the first course, on and off) and times each to its frame.
func measureLive(size: Int, arguments: [String], changes: Int, write: (Bool) async throws -> Void) async throws -> LiveFigures {
    var figures = LiveFigures()
    let terminal = try PseudoTerminal(tui, arguments, environment: environment)
    let loaded = "1/\(size)"
    guard terminal.readUntilQuiet(until: loaded).text.contains(loaded) else {
        throw BenchError.failed("the catalog never showed \(loaded)")
    }
    // A frame of its own settles first (the marks of the first rows), so the next one is the change's.
    _ = terminal.readUntilQuiet(quiet: .milliseconds(300))
    var lastDrawn = clock.now
    for number in 0..<changes {
        // The app applies a learner's news at once after a quiet second, and what comes sooner
        // a second after the last (NewsPacer): each change here is timed after a quiet spell,
        // as one change made elsewhere is, not queued behind the one before.
        try await Task.sleep(until: lastDrawn + .milliseconds(1_100), clock: clock)
        let started = clock.now
        try await write(number % 2 == 0)
        let committed = clock.now
        let frame = terminal.readNextFrame()
        guard let last = frame.lastByteAt else {
            figures.missed += 1
            continue
        }
        lastDrawn = last
        figures.committedToDrawn.append(milliseconds(last - committed))
        figures.writeToDrawn.append(milliseconds(last - started))
    }
    for _ in 0..<max(5, options.runs) {
        let (time, _) = press("r", in: terminal)
        figures.reload.append(time)
    }
    return figures
}

func printLive(_ label: String, _ figures: LiveFigures, changes: Int) {
    print(
        "  \(label): commit → drawn p50 \(format(percentile(figures.committedToDrawn, 0.5))), p99 \(format(percentile(figures.committedToDrawn, 0.99))); write → drawn p50 \(format(percentile(figures.writeToDrawn, 0.5))), p99 \(format(percentile(figures.writeToDrawn, 0.99))); \(figures.committedToDrawn.count)/\(changes) drawn, \(figures.missed) missed; r to end of frame \(format(median(figures.reload)))"
    )
}
