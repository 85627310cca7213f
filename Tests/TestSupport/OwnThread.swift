import Foundation

/// Runs `work` on a thread of its own and awaits it. Heavy synchronous setup (a 100 k catalog
/// seeded in SQLite) then never holds one of the test process's cooperative threads, of which a
/// 2-core machine has two: holding them stalled every other suite for a minute and more,
/// in-process servers included, whose requests then missed their time limit.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// A value built once, on a thread of its own, however many tests ask for it at once: they
/// await it (a `static let` would make all but the first block a thread in `swift_once`).
public actor BuiltOnce<Value: Sendable> {
    private let build: @Sendable () throws -> Value
    private var building: Task<Value, any Error>?

    public init(_ build: @escaping @Sendable () throws -> Value) {
        self.build = build
    }

    public func value() async throws -> Value {
        if building == nil {
            let build = self.build
            building = Task { try await onOwnThread(build) }
        }
        guard let building else { throw CancellationError() }
        return try await building.value
    }
}
