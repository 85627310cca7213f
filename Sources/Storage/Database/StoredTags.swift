import Foundation

/// A course's tags as the `tags` column holds them: a JSON list of strings. Lists of ids are
/// handed to SQLite's `json_each` the same way.
enum StoredTags {
    /// Plain tags (no quote, backslash, slash or control character) are joined directly, as
    /// JSONSerialization writes them: it was a twentieth of a bulk import's time.
    static func encode(_ tags: [String]) throws -> String {
        let plain = tags.allSatisfy { tag in
            tag.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "/") }
        }
        if plain {
            // One string grown in place: a string per tag, joined, then wrapped, was a quarter
            // of making a row's values in an import.
            var json = "["
            json.reserveCapacity(tags.reduce(2) { $0 + $1.utf8.count + 3 })
            for (index, tag) in tags.enumerated() {
                if index > 0 { json.append(",") }
                json.append("\"")
                json.append(tag)
                json.append("\"")
            }
            json.append("]")
            return json
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: tags), as: UTF8.self)
    }

    /// The list, or `nil` when the text is not a JSON list of strings. Plain lists (no escapes,
    /// which is what `encode` writes for ordinary tags) are split directly: JSONSerialization
    /// was a third of the time reading a course took. Anything else goes to JSONSerialization.
    static func decode(_ json: String) -> [String]? {
        if let tags = decodePlain(json) { return tags }
        return (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String]
    }

    /// `["a","b c"]` with optional white space between tokens and no backslash or control
    /// character inside a string; `nil` for anything else, which `decode` then hands to
    /// JSONSerialization.
    static func decodePlain(_ json: String) -> [String]? {
        var json = json
        return json.withUTF8 { bytes -> [String]? in
            var at = 0
            func skipSpaces() {
                while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
            }
            func take(_ ascii: Unicode.Scalar) -> Bool {
                skipSpaces()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ascii) else { return false }
                at += 1
                return true
            }
            guard take("[") else { return nil }
            var tags: [String] = []
            if !take("]") {
                repeat {
                    guard take("\"") else { return nil }
                    let start = at
                    while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
                        guard bytes[at] != UInt8(ascii: "\\"), bytes[at] >= 0x20 else { return nil }
                        at += 1
                    }
                    guard at < bytes.count else { return nil }
                    tags.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self))
                    at += 1
                } while take(",")
                guard take("]") else { return nil }
            }
            skipSpaces()
            return at == bytes.count ? tags : nil
        }
    }
}
