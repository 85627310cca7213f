import Presentation

/// A place in a document's text that does not depend on the width it is laid out at: the
/// top-level block and how far into that block's text. A reader keeps its position across a
/// resize by taking the anchor of its top line and finding the line of the new layout that
/// holds it.
public struct MarkdownAnchor: Hashable, Sendable, Comparable {
    /// The index of the top-level block (the links listed after the body count as one past
    /// the last block).
    public var block: Int
    /// UTF-8 bytes of the block's text before the line, and one for each block inside it.
    public var offset: Int

    public init(block: Int, offset: Int) {
        self.block = block
        self.offset = offset
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.block, lhs.offset) < (rhs.block, rhs.offset)
    }
}
