import Foundation
import SharedKernel

/// The words of every language the app has, read once when the server starts: an error's
/// `message` is written in the first language of a request's `Accept-Language` that the
/// app has, else English. Codes never change.
struct ServerLanguages: Sendable {
    private let all: [Texts]

    init(_ languages: [Language] = Language.all) {
        all = languages.map(Texts.init)
    }

    /// `es-ES,es;q=0.9,en;q=0.8`: the ranges by their quality (then order), the first the
    /// app has; `*`, a quality of 0 or nothing known: English.
    func texts(accepting header: String?) -> Texts {
        guard let header, !header.isEmpty else { return all.first ?? .english }
        let ranges = header.split(separator: ",").prefix(20).enumerated().compactMap { index, part -> (String, Double, Int)? in
            let pieces = part.split(separator: ";")
            guard let tag = pieces.first?.trimmingCharacters(in: .whitespaces), !tag.isEmpty else { return nil }
            var quality = 1.0
            for parameter in pieces.dropFirst() {
                let pair = parameter.trimmingCharacters(in: .whitespaces)
                if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)), value.isFinite { quality = value }
            }
            return quality > 0 ? (tag, quality, index) : nil
        }
        for (tag, _, _) in ranges.sorted(by: { ($0.1, -$0.2) > ($1.1, -$1.2) }) {
            if let language = Language(identifier: tag), let texts = all.first(where: { $0.language == language }) { return texts }
        }
        return all.first ?? .english
    }
}
