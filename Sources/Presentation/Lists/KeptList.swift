import SharedKernel

/// A list as a screen draws it, built when its data changes and kept for the frames and keys
/// that follow: its count, an item by position and the position of an id cost the same
/// however long it is. Building it walks every item once (counted by `WorkMeter`).
public struct KeptList<Item: Identifiable>: RandomAccessCollection where Item.ID: Hashable {
    public let items: [Item]
    private let positions: [Item.ID: Int]
    /// Which build of the list this is: what is worked out from a whole list (a table's
    /// column widths) is kept for as long as the list is the same build.
    public var identity: ObjectIdentifier { ObjectIdentifier(build) }
    private let build = Build()

    private final class Build: Sendable {}

    public init(_ items: [Item] = []) {
        WorkMeter.count { $0.kept += items.count }
        self.items = items
        var positions: [Item.ID: Int] = [:]
        positions.reserveCapacity(items.count)
        for (position, item) in items.enumerated() where positions[item.id] == nil { positions[item.id] = position }
        self.positions = positions
    }

    public var startIndex: Int { items.startIndex }
    public var endIndex: Int { items.endIndex }
    public subscript(position: Int) -> Item { items[position] }

    /// Where the item with `id` is, if it is in the list.
    public func position(of id: Item.ID) -> Int? { positions[id] }

    public func contains(id: Item.ID) -> Bool { positions[id] != nil }

    /// The item with `id`, if it is in the list.
    public func item(_ id: Item.ID) -> Item? { positions[id].map { items[$0] } }
}

extension KeptList: Sendable where Item: Sendable, Item.ID: Sendable {}

extension Array {
    /// Where `element` goes in this list, sorted by `areInIncreasingOrder`: after every item
    /// ordered before it (a binary search, log n comparisons).
    public func insertionIndex(of element: Element, by areInIncreasingOrder: (Element, Element) -> Bool) -> Int {
        var (low, high) = (startIndex, endIndex)
        while low < high {
            let middle = low + (high - low) / 2
            if areInIncreasingOrder(element, self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension KeptList: Equatable where Item: Equatable {
    public static func == (lhs: KeptList, rhs: KeptList) -> Bool { lhs.items == rhs.items }
}

extension KeptList: ExpressibleByArrayLiteral {
    public init(arrayLiteral items: Item...) { self.init(items) }
}
