import Foundation
import SharedKernel

/// What `import-courses` prints, the app's and the server's alike, whichever store imported:
/// the counts on standard output, or the reason nothing changed on standard error after
/// `program: `; every line made printable by `sanitize` (a file's name or content must not
/// drive the terminal). Each returns the process exit code.
public enum CourseImportReport {
    public static func imported(
        _ file: String, into database: String, added: Int, updated: Int, texts: Texts = .english, sanitize: (String) -> String
    ) -> Int32 {
        // Each count its own text, so each agrees with its own number (`1 añadido, 3 actualizados`).
        let addedText: LocalizedText = "\(added) added"
        let updatedText: LocalizedText = "\(updated) updated"
        let counts: LocalizedText = "\(addedText), \(updatedText)"
        print(sanitize(texts("Imported \(file) into \(database): \(counts)")))
        return 0
    }

    public static func failed(_ reason: LocalizedText, program: String, texts: Texts = .english, sanitize: (String) -> String) -> Int32 {
        FileHandle.standardError.write(Data("\(program): \(sanitize(texts(reason)))\n".utf8))
        return 1
    }
}
