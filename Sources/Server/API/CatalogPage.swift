import EduGoAPI
import Foundation
import HTTPTypes
// The generated code's own request decoding (SPI for generated code): the hand-written
// catalog route reads its query exactly as the generated one would.
@_spi(Generated) import OpenAPIRuntime
import SharedKernel

/// What a request for a catalog page asks, however it arrived.
struct CatalogPageRequest: Hashable, Sendable {
    var text: String?
    var after: String?
    var before: String?
    var limit: Int64?
    var sort: String?

    init(text: String? = nil, after: String? = nil, before: String? = nil, limit: Int64? = nil, sort: String? = nil) {
        self.text = text
        self.after = after
        self.before = before
        self.limit = limit
        self.sort = sort
    }

    /// Through the generated operation.
    init(_ query: Operations.ListCourses.Input.Query) {
        self.init(text: query.query, after: query.after, before: query.before, limit: query.limit, sort: query.sort)
    }

    /// From a request's query string, decoded with the options the generated operation uses
    /// (form style, exploded: `+` is a space, percent escapes undone); a value not of its
    /// type is the same 400 the generated operation gives. A plain query (each known name at
    /// most once, escapes that decode, a whole-number limit) is read by hand: the generated
    /// decoding parses the whole query once per name, 6.5 % of a search page's server time.
    /// Anything else goes through it, and is answered as the generated route would.
    init(request: HTTPRequest) throws(APIFailure) {
        do {
            try Self.converter.validateAcceptIfPresent("application/json", in: request.headerFields)
        } catch {
            throw .invalidRequest(.badRequest, "The request is not one this address takes: \(verbatim: String(describing: error))")
        }
        let query = request.soar_query
        if let plain = Self.plain(query) { self = plain } else { self = try Self.decoded(query) }
    }

    /// One for every request, not one (with its JSON coders) made for each.
    private static let converter = Converter(configuration: Configuration())

    /// `query` decoded as the generated operation decodes it.
    static func decoded(_ query: Substring?) throws(APIFailure) -> CatalogPageRequest {
        let converter = Self.converter
        do {
            return CatalogPageRequest(
                text: try converter.getOptionalQueryItemAsURI(in: query, style: .form, explode: true, name: "query", as: String.self),
                after: try converter.getOptionalQueryItemAsURI(in: query, style: .form, explode: true, name: "after", as: String.self),
                before: try converter.getOptionalQueryItemAsURI(in: query, style: .form, explode: true, name: "before", as: String.self),
                limit: try converter.getOptionalQueryItemAsURI(in: query, style: .form, explode: true, name: "limit", as: Int64.self),
                sort: try converter.getOptionalQueryItemAsURI(in: query, style: .form, explode: true, name: "sort", as: String.self)
            )
        } catch {
            throw .invalidRequest(.badRequest, "The request is not one this address takes: \(verbatim: String(describing: error))")
        }
    }

    /// `query` read by hand when it is plain (see `init(request:)`), else nil.
    static func plain(_ query: Substring?) -> CatalogPageRequest? {
        var request = CatalogPageRequest()
        guard let query, !query.isEmpty else { return request }
        var seen: Set<Substring> = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: "="), case let name = pair[..<equals], seen.insert(name).inserted,
                let value = Self.unescaped(pair[pair.index(after: equals)...]), !value.isEmpty
            else { return nil }
            switch name {
            case "query": request.text = value
            case "after": request.after = value
            case "before": request.before = value
            case "sort": request.sort = value
            case "limit":
                guard value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let limit = Int64(value) else {
                    return nil
                }
                request.limit = limit
            default: return nil
            }
        }
        return request
    }

    /// A form value with `+` as a space and percent escapes undone; nil for a bad escape.
    private static func unescaped(_ value: Substring) -> String? {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(value) }
        return String(value).replacing("+", with: " ").removingPercentEncoding
    }
}

/// A page of the catalog as the API answers it, before it is written.
struct CatalogPageAnswer: Hashable, Sendable {
    var rows: [CatalogRow]
    /// The key to ask `after` for the next page, when there is one.
    var next: CatalogKey?
    /// The key to ask `before` for the previous page, when there is one.
    var previous: CatalogKey?
    var total: CatalogCount
    /// Whether the page was read towards the start of the order (`before`): a page cut short
    /// keeps the courses nearest its key, as it would with a smaller `limit`.
    var readsBackward = false

    /// `total` as the API writes it: a number, and whether it is only a lower bound.
    var totalParts: (count: Int, isLowerBound: Bool) {
        switch total {
        case .exactly(let count): (count, false)
        case .atLeast(let count): (count, true)
        }
    }
}

extension CatalogPageAnswer {
    /// The page with as many of its courses as `budget` bytes hold (`rowSizes`: each course's
    /// bytes as written), counted from the end it was read from. A page cut short gives the
    /// key to go on from (`next`, or `previous` for a page read backwards), so a client pages
    /// on. A course that alone passes the budget is left out and paged past: no course may be
    /// that large (`CourseLimits`), and no answer may pass the terminal's cap.
    func fitted(rowSizes: [Int], within budget: Int) -> CatalogPageAnswer {
        var kept: [Int] = []
        var bytes = 0
        var lastRead: CatalogKey?
        var isCut = false
        for index in readsBackward ? Array(rows.indices.reversed()) : Array(rows.indices) {
            // Each course but the first also takes a comma.
            let size = rowSizes[index] + 1
            if size > budget {
                lastRead = rows[index].key
                continue
            }
            if bytes + size > budget {
                isCut = true
                break
            }
            bytes += size
            kept.append(index)
            lastRead = rows[index].key
        }
        var fitted = self
        fitted.rows = kept.sorted().map { rows[$0] }
        if isCut, let lastRead {
            if readsBackward { fitted.previous = lastRead } else { fitted.next = lastRead }
        }
        return fitted
    }
}

extension Components.Schemas.CoursePage {
    /// The page as the generated types hold it: the reference that `CoursePageJSON` must match.
    init(_ answer: CatalogPageAnswer) {
        let (count, isLowerBound) = answer.totalParts
        self.init(
            courses: answer.rows.map { .init(value1: .init($0.course), value2: .init(key: $0.key.pageKey, added: $0.added)) },
            next: answer.next?.pageKey,
            previous: answer.previous?.pageKey,
            total: Int64(count),
            totalIsLowerBound: isLowerBound
        )
    }
}
