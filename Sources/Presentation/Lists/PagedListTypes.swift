import SharedKernel

/// An item of a paged list with the key that orders it.
public struct PagedItem<ItemKey: Comparable & Sendable, Item: Sendable>: Sendable {
    public let key: ItemKey
    public let item: Item

    public init(key: ItemKey, item: Item) {
        self.key = key
        self.item = item
    }
}

/// Where a page is read from: the ends, or right after or before a key.
public enum PagePosition<ItemKey: Comparable & Sendable>: Sendable {
    case first
    case last
    case after(ItemKey)
    case before(ItemKey)
}

/// How many items a list has; a lower bound when counting further would cost too much.
public enum ListCount: Hashable, Sendable {
    case exactly(Int)
    case atLeast(Int)
}

/// Why a list could not be loaded, in words for the person at the terminal.
public struct ListLoadError: Error, Hashable, Sendable {
    public var message: LocalizedText

    public init(message: LocalizedText) {
        self.message = message
    }
}
