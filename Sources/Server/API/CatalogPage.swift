import EduGoAPI
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
    /// type is the same 400 the generated operation gives.
    init(request: HTTPRequest) throws(APIFailure) {
        let converter = Converter(configuration: Configuration())
        let query = request.soar_query
        do {
            try converter.validateAcceptIfPresent("application/json", in: request.headerFields)
            self.init(
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
}

/// A page of the catalog as the API answers it, before it is written.
struct CatalogPageAnswer: Hashable, Sendable {
    var rows: [CatalogRow]
    /// The key to ask `after` for the next page, when there is one.
    var next: CatalogKey?
    /// The key to ask `before` for the previous page, when there is one.
    var previous: CatalogKey?
    var total: CatalogCount

    /// `total` as the API writes it: a number, and whether it is only a lower bound.
    var totalParts: (count: Int, isLowerBound: Bool) {
        switch total {
        case .exactly(let count): (count, false)
        case .atLeast(let count): (count, true)
        }
    }
}

extension Components.Schemas.CoursePage {
    /// The page as the generated types hold it: the reference that `CoursePageJSON` must match.
    init(_ answer: CatalogPageAnswer) {
        let (count, isLowerBound) = answer.totalParts
        self.init(
            courses: answer.rows.map { .init(value1: .init($0.course), value2: .init(key: $0.key.pageKey)) },
            next: answer.next?.pageKey,
            previous: answer.previous?.pageKey,
            total: Int64(count),
            totalIsLowerBound: isLowerBound
        )
    }
}
