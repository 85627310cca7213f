import Foundation
import TestSupport
import Testing

@testable import Platform

@Suite("Reading a course file")
struct CourseFileReaderTests {
    @Test("a regular file is read whole")
    func regularFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("courses.json").path
        _ = FileManager.default.createFile(atPath: path, contents: Data("[]".utf8))

        #expect(try CourseFileReader.read(path: path) == Data("[]".utf8))
    }

    @Test("what is not a regular file is refused at once, without reading", arguments: ["fifo", "/dev/zero", "directory", "missing"])
    func notARegularFile(kind: String) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path: String
        let reason: String
        switch kind {
        case "fifo":
            path = directory.url.appendingPathComponent("pipe").path
            try #require(mkfifo(path, 0o600) == 0)
            reason = "not a regular file"
        case "/dev/zero":
            path = "/dev/zero"
            reason = "not a regular file"
        case "directory":
            path = directory.url.path
            reason = "Is a directory"
        default:
            path = directory.url.appendingPathComponent("nothing.json").path
            reason = "No such file or directory"
        }

        #expect(throws: CourseFileError.cannotRead(path: path, reason: reason)) { try CourseFileReader.read(path: path) }
    }

    @Test("a file over the limit is refused, and says the limit")
    func tooLarge() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("big.json").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x20, count: 3 << 20))

        #expect(throws: CourseFileError.tooLarge(path: path, limit: 2 << 20)) { try CourseFileReader.read(path: path, limit: 2 << 20) }
        #expect(
            CourseFileError.tooLarge(path: path, limit: CourseFileReader.limit).description.hasSuffix(
                "larger than 64 MiB, the most an import reads"))
    }
}
