import SharedKernel

/// A course file whose entries are each valid and whose ids are unique.
public struct CourseFile: Sendable {
    public let entries: [CourseEntry]
    let ids: Set<CourseID>

    init(entries: [CourseEntry], ids: Set<CourseID>) {
        self.entries = entries
        self.ids = ids
    }

    /// Entries already in memory (a generated catalog), whose ids the caller made unique.
    public init(entries: [CourseEntry]) {
        self.init(entries: entries, ids: Set(entries.map(\.course.id)))
    }

    /// Prerequisites named in the file that are not courses of the file: they must already
    /// be stored.
    public var outsidePrerequisites: Set<CourseID> {
        Set(entries.compactMap(\.course.prerequisiteID).filter { !ids.contains($0) })
    }

    /// Fails on the first entry whose prerequisite is neither in the file nor in `stored`.
    public func checkPrerequisites(stored: Set<CourseID>) throws(CourseFileError) {
        for (index, entry) in entries.enumerated() {
            if let prerequisite = entry.course.prerequisiteID, !ids.contains(prerequisite), !stored.contains(prerequisite) {
                throw .unknownPrerequisite(index: index, id: entry.course.id.rawValue, prerequisiteID: prerequisite.rawValue)
            }
        }
    }

    /// Fails on the first entry whose chain of prerequisites comes back to a course already
    /// on it, following the file's courses first and then the stored ones
    /// (`storedPrerequisite` gives a stored course's prerequisite, `nil` for none or unknown).
    public func checkCycles(storedPrerequisite: (CourseID) throws -> CourseID?) throws(CourseFileError) {
        var inFile: [CourseID: CourseID?] = [:]
        for entry in entries { inFile[entry.course.id] = entry.course.prerequisiteID }
        for (index, entry) in entries.enumerated() {
            var chain = [entry.course.id]
            var next = entry.course.prerequisiteID
            while let current = next {
                if current == entry.course.id {
                    throw .prerequisiteCycle(index: index, id: entry.course.id.rawValue, cycle: (chain + [current]).map(\.rawValue))
                }
                // A loop that does not come back here is reported at an entry on it.
                if chain.contains(current) { break }
                chain.append(current)
                if let fromFile = inFile[current] {
                    next = fromFile
                } else {
                    do { next = try storedPrerequisite(current) } catch { next = nil }
                }
            }
        }
    }
}
