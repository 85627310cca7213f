import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a course file for an import: a regular file only (a FIFO would block, `/dev/zero`
/// never end), and at most `limit` bytes, where reading stops.
public enum CourseFileReader {
    /// 64 MiB: about 100,000 courses with long descriptions, and what decoding can hold in
    /// memory comfortably; a bigger catalog is imported in several files.
    public static let limit = 64 << 20

    public static func read(path: String, limit: Int = CourseFileReader.limit) throws(CourseFileError) -> Data {
        // O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .cannotRead(path: path, reason: String(cString: strerror(EISDIR)))
        default: throw .cannotRead(path: path, reason: "not a regular file")
        }
        guard Int(status.st_size) <= limit else { throw .tooLarge(path: path, limit: limit) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
            }
            data.append(contentsOf: buffer[..<count])
            // A file that grows while it is read is still cut at the limit.
            guard data.count <= limit else { throw .tooLarge(path: path, limit: limit) }
        }
        return data
    }
}
