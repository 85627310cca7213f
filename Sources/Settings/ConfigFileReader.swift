import Foundation
import SharedKernel

#if canImport(Glibc)
import Glibc
#endif

/// The config file's bytes, read with a bound: its size is checked before it is read, and no
/// more than the limit (and one byte) is read whatever it turns out to be, so a huge file, a
/// device or a pipe costs a megabyte at most and never blocks.
enum ConfigFileReader {
    /// The text of the file at `path`; nil when there is none. Refused: a loop of symbolic
    /// links, anything but a regular file, more than `limit` bytes, text that is not UTF-8,
    /// and control characters other than tab and line ends (a NUL would otherwise end what
    /// the parser sees, silently).
    static func text(path: String, limit: Int) throws(ConfigProblem) -> String? {
        func problem(_ reason: LocalizedText, line: Int? = nil) -> ConfigProblem {
            ConfigProblem(path: path, line: line, key: nil, reason: reason)
        }
        // Not blocking: a pipe named as the config file must not hold the app's start.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: return nil
            case ELOOP: throw problem("is a loop of symbolic links")
            default: throw problem("cannot be read")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw problem("cannot be read") }
        guard status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else { throw problem("is not a regular file") }
        guard status.st_size <= limit else { throw problem("is larger than 1 MiB") }

        // It may grow between the check and the read: one byte past the limit tells.
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                // Never empty (the limit and one byte), so it has an address.
                guard let start = buffer.baseAddress else { return 0 }
                return Glibc.read(descriptor, start + count, buffer.count - count)
            }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw problem("cannot be read") }
            if read == 0 { break }
            count += read
        }
        guard count <= limit else { throw problem("is larger than 1 MiB") }
        bytes.removeSubrange(count...)
        if let (line, byte) = firstControlCharacter(in: bytes) {
            throw problem("holds a control character (\(verbatim: String(format: "U+%04X", byte)))", line: line)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw problem("is not UTF-8 text") }
        return text
    }

    /// The line (from 1) and value of the first control character that is not a tab or a line
    /// end (`\n`, or `\r` before one), if any.
    static func firstControlCharacter(in bytes: [UInt8]) -> (line: Int, byte: UInt8)? {
        var line = 1
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "\n"): line += 1
            case UInt8(ascii: "\t"): continue
            case UInt8(ascii: "\r") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"): continue
            case 0..<0x20, 0x7F: return (line, byte)
            default: continue
            }
        }
        return nil
    }
}
