import Foundation

/// A key given twice in one object of a course file (`{"id": "a", "id": "b"}`): Foundation's
/// decoders keep one of the two without a word, so a file could say one thing and import
/// another.
struct DuplicateKey: Hashable, Sendable {
    /// The entry it is in, from 0; nil for the file's top-level object.
    var entry: Int?
    /// The entry's id, as its first `"id"` gives it, when it has one.
    var id: String?
    /// Where the key is in its entry, as import problems name fields (`lessons[1].title`).
    var field: String
}

/// Finds the first key given twice in any object of a JSON text, at any depth. One pass over
/// the bytes with a stack of its own (no recursion, so no depth can exhaust the thread's), in
/// time linear in the text. It expects valid JSON: `CourseJSON` checks that first, and tells
/// broken JSON by its line and column.
enum DuplicateKeys {
    static func first(in data: Data) -> DuplicateKey? {
        data.withUnsafeBytes { bytes in
            var scanner = Scanner(bytes: bytes.bindMemory(to: UInt8.self))
            return scanner.run()
        }
    }

    /// How a container is reached from the one around it.
    private enum Step {
        case key(String)
        case index(Int)
    }

    private struct Frame {
        let isObject: Bool
        /// How this container is reached from its parent (`nil` at the top).
        let step: Step?
        /// An array's current index.
        var index = 0
        /// An object's keys so far: a list while short, a set beyond (a hostile object with
        /// many keys stays linear).
        var keys: [String] = []
        var keySet: Set<String> = []
        /// An object's last key: the step to the value that follows it.
        var lastKey = ""

        /// Adds `key`; false when the object has it already.
        mutating func insert(_ key: String) -> Bool {
            lastKey = key
            if keySet.isEmpty {
                if keys.contains(key) { return false }
                keys.append(key)
                if keys.count > 16 {
                    keySet = Set(keys)
                    keys = []
                }
                return true
            }
            return keySet.insert(key).inserted
        }

        var childStep: Step { isObject ? .key(lastKey) : .index(index) }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var stack: [Frame] = []
        var expectingKey = false
        /// The depth of entries: 1 in a top-level array, 2 under `"courses"`; nil until known.
        var entryDepth: Int?
        var entryID: String?
        var found: DuplicateKey?

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func run() -> DuplicateKey? {
            var position = 0
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let step = stack.last?.childStep
                    if entryDepth == nil { noteEntries(opening: byte, step: step) }
                    stack.append(Frame(isObject: byte == UInt8(ascii: "{"), step: step))
                    expectingKey = byte == UInt8(ascii: "{")
                    if stack.count - 1 == entryDepth { entryID = nil }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    stack.removeLast()
                    expectingKey = false
                    // A duplicate is told once its entry is read to the end, so its id is known.
                    if var found, stack.count == entryDepth {
                        found.id = entryID
                        return found
                    }
                case UInt8(ascii: ","):
                    if stack.last?.isObject == true { expectingKey = true } else if !stack.isEmpty { stack[stack.count - 1].index += 1 }
                case UInt8(ascii: "\""):
                    let end = stringEnd(from: position)
                    if expectingKey {
                        expectingKey = false
                        let key = text(position..<end)
                        if !stack[stack.count - 1].insert(key), found == nil {
                            found = duplicate(key)
                            if found?.entry == nil { return found }
                        }
                    } else if entryID == nil, let entryDepth, stack.count == entryDepth + 1, stack[stack.count - 1].lastKey == "id" {
                        entryID = text(position..<end)
                    }
                    position = end
                    continue
                default:
                    break
                }
                position += 1
            }
            return found
        }

        /// Entries are a top-level array's elements, or those of a top-level object's `"courses"`.
        mutating func noteEntries(opening byte: UInt8, step: Step?) {
            guard byte == UInt8(ascii: "[") else { return }
            if stack.isEmpty {
                entryDepth = 1
            } else if stack.count == 1, case .key("courses") = step {
                entryDepth = 2
            }
        }

        /// Past the closing quote of the string that starts at `start`.
        func stringEnd(from start: Int) -> Int {
            var position = start + 1
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\\"): position += 2
                case UInt8(ascii: "\""): return position + 1
                default: position += 1
                }
            }
            return bytes.count
        }

        /// A JSON string's text: its escapes undone, so `"\u0069d"` is the key `id`, as the
        /// decoders read it. Keys compare as Swift strings, as the decoders' dictionaries do.
        func text(_ range: Range<Int>) -> String {
            let inside = UnsafeBufferPointer(rebasing: bytes[(range.lowerBound + 1)..<max(range.lowerBound + 1, range.upperBound - 1)])
            guard inside.contains(UInt8(ascii: "\\")) else { return String(decoding: inside, as: UTF8.self) }
            let quoted = Data(UnsafeBufferPointer(rebasing: bytes[range]))
            return (try? JSONSerialization.jsonObject(with: quoted, options: .fragmentsAllowed)) as? String ?? ""
        }

        /// `key`, found twice in the innermost object: where it is.
        func duplicate(_ key: String) -> DuplicateKey {
            guard let entryDepth, stack.count > entryDepth else { return DuplicateKey(entry: nil, id: nil, field: key) }
            var field = ""
            for frame in stack[(entryDepth + 1)...] {
                switch frame.step {
                case .key(let name)?: field += (field.isEmpty ? "" : ".") + name
                case .index(let index)?: field += "[\(index)]"
                case nil: break
                }
            }
            field += (field.isEmpty ? "" : ".") + key
            return DuplicateKey(entry: stack[entryDepth - 1].index, id: nil, field: field)
        }
    }
}
