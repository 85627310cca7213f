import SharedKernel

/// The state every data-loading view-model is in, drawn the same way on every screen.
public enum ViewState<Value: Sendable>: Sendable {
    /// Nothing requested yet (never on screen for more than a frame).
    case idle
    case loading
    /// Loaded, with nothing to show; the screen says why and what to do next.
    case empty
    case loaded(Value)
    /// Failed; the message is for the person and is followed by `Press r to retry`.
    case error(message: LocalizedText)

    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    public var value: Value? {
        if case .loaded(let value) = self { return value }
        return nil
    }
}

extension ViewState: Equatable where Value: Equatable {}
