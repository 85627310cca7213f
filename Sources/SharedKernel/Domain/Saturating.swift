/// Arithmetic on counts and minutes that holds at the ends of `Int` instead of trapping: a
/// number from any store (a server's above all) may be as large as the type allows, and no
/// number may crash the app.
public enum Saturating {
    /// `a + b`, or `Int.max` / `Int.min` where the sum would leave `Int`.
    public static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return sum }
        return b > 0 ? .max : .min
    }

    /// `a - b`, or `Int.max` / `Int.min` where the difference would leave `Int`.
    public static func subtract(_ a: Int, _ b: Int) -> Int {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        guard overflow else { return difference }
        return b < 0 ? .max : .min
    }

    /// The sum of `values`, held at the ends of `Int`.
    public static func sum(_ values: some Sequence<Int>) -> Int {
        values.reduce(0, add)
    }
}
