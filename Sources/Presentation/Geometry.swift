/// A terminal size in columns and rows.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)×\(height)" }
}

/// A rectangle of cells; `x`/`y` is the top-left cell.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The same rectangle without `count` rows at the top.
    public func droppingTop(_ count: Int) -> Rect {
        Rect(x: x, y: y + min(count, height), width: width, height: height - count)
    }

    /// The rectangle shrunk by `horizontal` columns on each side.
    public func insetBy(horizontal: Int) -> Rect {
        Rect(x: x + horizontal, y: y, width: width - 2 * horizontal, height: height)
    }

    public func contains(x column: Int, y row: Int) -> Bool {
        column >= x && column < x + width && row >= y && row < y + height
    }
}
