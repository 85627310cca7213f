import Observation

/// One counter whose reads and changes stand for those of a generic class's state: the class
/// reads it in each getter and bumps it before each change, so observers
/// (`withObservationTracking`) see the class as if it were `@Observable`, at the cost of a
/// read of a non-generic property, where the macro's accessors in a generic class made a
/// key path on every read.
@Observable
@MainActor
public final class ObservedChanges {
    private var count = 0

    public init() {}

    /// Registers the read with the observation under way, if any.
    public func read() { _ = count }

    /// Tells observers that what they read changes now.
    public func willChange() { count &+= 1 }
}
