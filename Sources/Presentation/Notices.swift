/// News handed to whoever is listening now, on the main actor: screens listen while they
/// exist (held weakly, so a screen that went away stops hearing), and each starts what the
/// news asks of it as work of its own, which its `settle` then waits for.
@MainActor
public final class Notices<Value> {
    private struct Listener {
        weak var owner: AnyObject?
        let hear: @MainActor (Value) -> Void
    }

    private var listeners: [Listener] = []

    public init() {}

    /// `hear` is told every value posted from now on, for as long as `owner` exists.
    public func listen(_ owner: AnyObject, _ hear: @escaping @MainActor (Value) -> Void) {
        listeners.removeAll { $0.owner == nil }
        listeners.append(Listener(owner: owner, hear: hear))
    }

    public func post(_ value: Value) {
        listeners.removeAll { $0.owner == nil }
        for listener in listeners where listener.owner != nil { listener.hear(value) }
    }

    /// How many are listening (tests check that a screen that went away stopped).
    public var listenerCount: Int { listeners.filter { $0.owner != nil }.count }
}
