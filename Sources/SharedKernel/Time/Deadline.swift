/// An operation had no answer within its time limit.
public struct DeadlineExceeded: Error, Equatable, Sendable, CustomStringConvertible {
    public init() {}

    public var description: String { "no answer within the time limit" }
}

/// `operation`'s answer, or `DeadlineExceeded` once `limit` has passed on `clock`. At the
/// deadline the operation is cancelled, and this returns when it has ended: nothing it started
/// outlives the call. A failure of its own, before the deadline, is thrown as it is. The one
/// race of an operation against a time limit: callers say what a late answer means to them
/// (a storage failure, a busy server, an unreachable one) by catching `DeadlineExceeded`.
public func withDeadline<T: Sendable, C: Clock>(
    _ limit: C.Duration, on clock: C, operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: DeadlineRace<T>.self) { group in
        group.addTask { .answered(try await operation()) }
        group.addTask {
            try await clock.sleep(for: limit)
            return .expired
        }
        defer { group.cancelAll() }
        switch try await group.next() {
        case .answered(let value)?: return value
        case .expired?, nil: throw DeadlineExceeded()
        }
    }
}

/// Who came first: the answer, or the deadline.
private enum DeadlineRace<T: Sendable>: Sendable {
    case answered(T)
    case expired
}
