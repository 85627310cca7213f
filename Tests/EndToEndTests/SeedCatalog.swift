import Foundation
import Testing

/// The built-in catalog as the app sorts it, read from the shipped resource, so journeys can
/// find a course's row without counting by hand.
enum SeedCatalog {
    static let titles: [String] = {
        let fold = { (text: String) in text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil) }
        return entries.map(\.title).sorted { fold($0) < fold($1) }
    }()

    /// Seats taken in the shipped catalog, by title, before any learner of the test enrolls.
    static let enrolledCounts: [String: Int] = Dictionary(
        entries.map { ($0.title, $0.enrolledCount ?? 0) }, uniquingKeysWith: { first, _ in first }
    )

    /// What a journey needs of a shipped course: its row, its seats, what a filter must find.
    struct Entry: Decodable {
        let title: String
        let instructor: String
        let category: String?
        let level: String
        let enrolledCount: Int?

        enum CodingKeys: String, CodingKey {
            case title, instructor, category, level
            case enrolledCount = "enrolled_count"
        }
    }

    /// The shipped resource, read once for all of the above.
    static let entries: [Entry] = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Platform/Resources/catalog.json")
            .standardized
        // A catalog moved or malformed stops the journeys at once, rather than as "2/0" later.
        guard let data = try? Data(contentsOf: url), let entries = try? JSONDecoder().decode([Entry].self, from: data), !entries.isEmpty
        else {
            preconditionFailure("the shipped catalog is not readable at \(url.path)")
        }
        return entries
    }()

    /// The row of `title` in the catalog list, counting from 0.
    static func row(of title: String) -> Int? {
        titles.firstIndex(of: title)
    }
}

extension TmuxSession {
    /// From the catalog list at the top, opens the course with this title.
    func openCourse(_ title: String) async throws {
        guard let row = SeedCatalog.row(of: title) else { throw TmuxError.failed("no seeded course titled \(title)") }
        try send("Home")
        try send("Down", times: row)
        try await waitFor("\(row + 1)/\(SeedCatalog.titles.count)")
        try send("Enter")
        try await waitFor("by ")
    }
}

extension TmuxSession {
    /// Picks the choice drawn as `text` in the question on screen (choices are shuffled per
    /// card and day): its digit, read off the screen.
    func choose(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let screen = try await waitFor("the choice \(text)", sourceLocation: sourceLocation) { screen in
            screen.contains { Self.choiceNumber(in: $0, text: text) != nil }
        }
        try send(screen.lazy.compactMap { Self.choiceNumber(in: $0, text: text) }.first ?? "")
    }

    /// `2` from `  2 ○ text` (or `[ ]` when accessible), when the choice is `text`.
    static func choiceNumber(in line: String, text: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        for mark in [" ○ ", " ● ", " [ ] ", " [x] "] {
            guard let range = trimmed.range(of: mark), trimmed[range.upperBound...] == text else { continue }
            let number = trimmed[..<range.lowerBound]
            if number.count == 1, number.first?.isNumber == true { return String(number) }
        }
        return nil
    }
}

extension TmuxSession {
    /// From any tab: the Profile tab, `e`, the field cleared, `name` typed and saved; returns
    /// the screen that says `Name updated`.
    @discardableResult
    func renameLearner(to name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        try send("4")
        try await waitFor("Member since", sourceLocation: sourceLocation)
        try send("e", "C-u")
        try type(name)
        try send("Enter")
        return try await waitFor("Name updated", sourceLocation: sourceLocation)
    }
}

extension TmuxSession {
    /// The app on `server` (remote mode), the demo learner signed in, the built-in catalog shown.
    static func onCatalog(of server: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws -> TmuxSession {
        let session = try TmuxSession(arguments: ["--server", server.absoluteString])
        try await session.signInIfAsked(sourceLocation: sourceLocation)
        try await session.waitFor("Catalog  64 courses", sourceLocation: sourceLocation)
        return session
    }
}
