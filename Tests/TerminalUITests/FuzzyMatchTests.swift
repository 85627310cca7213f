import Testing

@testable import Presentation
@testable import TerminalUI

/// The palette's filter: the query's letters in order, a prefix first, then word starts.
@Suite("Fuzzy matching")
struct FuzzyMatchTests {
    static let titles = [
        "Mark or unmark as a favourite ★", "Go to Favourites", "Search title, instructor and tags", "Open the course",
        "Read the catalog again",
    ]

    @Test(
        "what each query finds, best first",
        arguments: [
            ("", titles),
            ("fav", ["Go to Favourites", "Mark or unmark as a favourite ★"]),
            ("go", ["Go to Favourites"]),
            ("srch", ["Search title, instructor and tags"]),
            ("otc", ["Open the course"]),
            ("FAVOURITE", ["Go to Favourites", "Mark or unmark as a favourite ★"]),
            ("zz", []),
        ] as [(String, [String])])
    func filter(query: String, expected: [String]) {
        #expect(FuzzyMatch.filter(Self.titles, query: query) { $0 } == expected)
    }

    @Test("a prefix beats a word's start, which beats letters apart; accents and case do not count")
    func scores() throws {
        let prefix = try #require(FuzzyMatch.score("rea", in: "Read the catalog"))
        let word = try #require(FuzzyMatch.score("rea", in: "Try reading"))
        let apart = try #require(FuzzyMatch.score("rea", in: "Bring the area"))
        #expect(prefix > word && word > apart)
        #expect(FuzzyMatch.score("espanol", in: "Español conversacional") != nil)
        #expect(FuzzyMatch.score("ab", in: "ba") == nil)
    }
}
