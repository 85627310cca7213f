import Foundation
import SharedKernel

/// A `CourseRepository` double that records every call and answers from a canned catalog
/// or a canned error; with a gate, calls wait until the test opens it.
public actor CourseRepositorySpy: CourseRepository {
    public enum Message: Equatable, Sendable {
        case allCourses
        case search(String)
        case course(CourseID)
    }

    public private(set) var messages: [Message] = []
    private var result: Result<[Course], AppError>
    private var gate: Gate?

    public init(result: Result<[Course], AppError>, gate: Gate? = nil) {
        self.result = result
        self.gate = gate
    }

    public static func success(_ courses: [Course], gate: Gate? = nil) -> CourseRepositorySpy {
        CourseRepositorySpy(result: .success(courses), gate: gate)
    }

    public static var offline: CourseRepositorySpy {
        CourseRepositorySpy(result: .failure(.connectivity))
    }

    /// Holds later calls at `gate` until the test opens it.
    public func setGate(_ gate: Gate?) {
        self.gate = gate
    }

    public func setResult(_ result: Result<[Course], AppError>) {
        self.result = result
    }

    public func allCourses() async throws(AppError) -> [Course] {
        messages.append(.allCourses)
        await gate?.wait()
        return try result.get()
    }

    public func search(_ query: String) async throws(AppError) -> [Course] {
        messages.append(.search(query))
        await gate?.wait()
        return BruteForceSearch.filter(try result.get(), query: query)
    }

    public func course(id: CourseID) async throws(AppError) -> Course {
        messages.append(.course(id))
        await gate?.wait()
        let courses = try result.get()
        guard let course = courses.first(where: { $0.id == id }) else { throw .courseNotFound(id) }
        return course
    }
}

/// The obvious, slow search that the real one must agree with: every word of the query in
/// the title, instructor or a tag, ignoring case and accents.
public enum BruteForceSearch {
    public static func filter(_ courses: [Course], query: String) -> [Course] {
        let words = fold(query).split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return courses }
        return courses.filter { course in
            let haystack = fold(([course.title, course.instructor] + course.tags).joined(separator: "\n"))
            return words.allSatisfy { haystack.contains($0) }
        }
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
