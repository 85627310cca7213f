import HTTPTypes
import PropertyBased
import Synchronization
import Testing

@testable import Server

/// The catalog route reads a plain query by hand; the generated decoding is the contract it
/// must meet, and what every other query goes through.
@Suite("Server: a catalog page's query read by hand as the generated decoding reads it")
struct CatalogPageRequestTests {
    static let plainQueries = [
        "", "limit=20", "limit=20&query=swift", "query=level%3Aadvanced%20is%3Afree&limit=20", "query=a+b", "query=c%2B%2B",
        "query=%C3%A9t%C3%A9+d%C3%ADa", "after=32768000000&limit=20&sort=price", "before=abc&sort=-title", "limit=007",
        "sort=title&limit=100&query=cat%3A%22data+sc%22&after=5", "limit=2%30",
    ]

    static let otherQueries = [
        "query=", "limit=abc", "limit=-1", "limit=+5", "limit=99999999999999999999", "query=a&query=b", "foo=bar", "query",
        "query=%ZZ", "&limit=20", "limit=20&", "Query=swift", "%71uery=swift",
    ]

    @Test("a plain query is read by hand, to what the generated decoding reads", arguments: plainQueries)
    func plain(query: String) throws {
        #expect(CatalogPageRequest.plain(Substring(query)) != nil)
        #expect(try CatalogPageRequest(request: Self.request(query)) == CatalogPageRequest.decoded(Substring(query)))
    }

    @Test("any other query is left to the generated decoding, its answer or its 400", arguments: otherQueries)
    func other(query: String) {
        #expect(CatalogPageRequest.plain(Substring(query)) == nil)
        #expect(Self.outcome(query) == Self.decodedOutcome(query))
    }

    @Test("queries of names and values of escapes, separators and plain text read as the generated decoding reads them")
    func anyQuery() async {
        let names = ["query", "limit", "after", "sort", "before", "Query", ""]
        let pieces = ["=", "&", "+", "%", "%2", "%20", "%2B", "%3A", "%C3%A9", "%FF", "1", "20", "a", "Z", "-", ":", "é", ""]
        let readByHand = Atomic(0)
        await propertyCheck(
            count: 2_000,
            input: Gen.int(in: 0...(names.count - 1)).array(of: 1...4), Gen.int(in: 0...(pieces.count - 1)).array(of: 0...4).array(of: 4)
        ) { chosenNames, chosenValues in
            let query = zip(chosenNames, chosenValues).map { name, value in names[name] + "=" + value.map { pieces[$0] }.joined() }
                .joined(separator: "&")
            if CatalogPageRequest.plain(Substring(query)) != nil { readByHand.add(1, ordering: .relaxed) }
            #expect(Self.outcome(query) == Self.decodedOutcome(query), "\(query)")
        }
        // Both ways are tried: a good part of the queries is plain.
        #expect(readByHand.load(ordering: .relaxed) > 50, "\(readByHand.load(ordering: .relaxed)) plain")
    }

    static func request(_ query: String) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: nil, authority: nil, path: query.isEmpty ? "/v1/courses" : "/v1/courses?\(query)")
    }

    static func outcome(_ query: String) -> Result<CatalogPageRequest, APIFailure> {
        Result { () throws(APIFailure) in try CatalogPageRequest(request: request(query)) }
    }

    static func decodedOutcome(_ query: String) -> Result<CatalogPageRequest, APIFailure> {
        Result { () throws(APIFailure) in try CatalogPageRequest.decoded(query.isEmpty ? nil : Substring(query)) }
    }
}
