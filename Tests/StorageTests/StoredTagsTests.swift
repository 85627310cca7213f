import Foundation
import Testing

@testable import Storage

@Suite("Tags as stored: a JSON list of strings")
struct StoredTagsTests {
    @Test(
        "what is stored reads back the same, plain or not",
        arguments: [
            [], ["swift"], ["a", "b c", ""], ["c/c++", "日本語", "Ærø"], ["say \"hi\"", "back\\slash", "tab\there", "line\nbreak"],
        ] as [[String]])
    func roundTrip(tags: [String]) throws {
        #expect(StoredTags.decode(try StoredTags.encode(tags)) == tags)
        // Plain lists are written by hand: byte for byte what JSONSerialization writes.
        #expect(try StoredTags.encode(tags) == String(decoding: try JSONSerialization.data(withJSONObject: tags), as: UTF8.self))
    }

    @Test(
        "plain lists are split directly, as JSONSerialization would read them",
        arguments: [
            #"[]"#, #"["a"]"#, #"[ "a" , "b" ]"#, #"["", ""]"#, "[\n\"x\"\n]", #"["é","日"]"#,
        ])
    func plain(json: String) {
        let direct = StoredTags.decodePlain(json)
        #expect(direct != nil)
        #expect(direct == (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String])
    }

    @Test(
        "anything else is not a plain list; what is not a list of strings is nil",
        arguments: [
            #"["a\"b"]"#, #"["a\u0041"]"#, #"["a",]"#, #"["a" "b"]"#, #"["a"] x"#, #"{"a": 1}"#, #"[1]"#, #"["a""#, "", "[",
        ])
    func notPlain(json: String) {
        #expect(StoredTags.decodePlain(json) == nil)
        #expect(StoredTags.decode(json) == (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String])
    }
}
