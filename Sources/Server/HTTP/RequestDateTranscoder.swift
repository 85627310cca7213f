import Foundation
import HTTPTypes
import OpenAPIRuntime
import SharedKernel

/// The API's times (`at`), read as the generated default reads them: RFC 3339 in whole seconds,
/// `2026-11-24T09:30:00Z`. One it cannot read is 400 `invalid_request` that says so, in a query
/// and in a body alike; the default's error has no field and would read as broken JSON.
/// Answers are written as the default writes them, which a client reads back to the same instant.
struct RequestDateTranscoder: DateTranscoder {
    private let standard = ISO8601DateTranscoder.iso8601

    func encode(_ date: Date) throws -> String {
        try standard.encode(date)
    }

    func decode(_ text: String) throws -> Date {
        do {
            return try standard.decode(text)
        } catch {
            throw APIFailure.invalidRequest(.badRequest, "A time is RFC 3339 in whole seconds, as 2026-11-24T09:30:00Z.")
        }
    }
}
