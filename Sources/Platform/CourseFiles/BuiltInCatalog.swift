import Foundation
import SharedKernel

/// The hand-written catalog shipped with the app and loaded on first run.
public enum BuiltInCatalog {
    public static func load() throws -> [CourseEntry] {
        guard let url = Bundle.module.url(forResource: "catalog", withExtension: "json") else {
            throw CourseFileError.cannotRead(path: "catalog.json", reason: "the built-in catalog resource is missing")
        }
        return try CourseJSON.decode(Data(contentsOf: url))
    }
}
