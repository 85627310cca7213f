import Foundation

/// How many parts an import cuts its per-course work into (folding keys, making rows): one
/// per core, at most 8, from 10,000 courses; below that one, where threads cost more than
/// they save. Both stores' imports cut their work by it.
public enum ImportParts {
    public static func count(courses: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        courses < 10_000 ? 1 : max(1, min(cores, 8))
    }
}
