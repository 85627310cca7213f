import Presentation

extension Unicode.Scalar {
    /// Columns this scalar takes on a terminal, as glibc's `wcwidth` (and so ncursesw) counts
    /// them: 0 for combining marks and controls, 2 for CJK and most emoji, else 1.
    public var terminalWidth: Int {
        let value = self.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if DisplayWidthTable.zeroWidth.containsValue(value) { return 0 }
        if DisplayWidthTable.doubleWidth.containsValue(value) { return 2 }
        return 1
    }
}

extension StringProtocol {
    /// Columns the text takes on a terminal: the sum of its scalars' widths, as ncursesw draws it.
    public var displayWidth: Int {
        var width = 0
        for scalar in unicodeScalars {
            width += scalar.terminalWidth
        }
        return width
    }
}

extension Character {
    /// Columns this grapheme takes on a terminal.
    public var displayWidth: Int {
        unicodeScalars.reduce(0) { $0 + $1.terminalWidth }
    }
}

extension Array where Element == ClosedRange<UInt32> {
    /// Binary search over sorted, disjoint ranges.
    func containsValue(_ value: UInt32) -> Bool {
        var low = 0
        var high = count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = self[mid]
            if value < range.lowerBound {
                high = mid - 1
            } else if value > range.upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}
