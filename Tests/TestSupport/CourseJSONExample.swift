/// SPEC's example course entry, as a course file holds it: the suites of the file format and
/// of imports each edit one part of it.
public enum CourseJSONExample {
    public static let valid = """
        {"id": "swift-concurrency", "title": "Swift Concurrency in Practice",
         "instructor": "María García", "category": "Swift", "level": "intermediate",
         "duration_minutes": 150, "price": 35.99, "currency": "EUR",
         "capacity": 40, "enrolled_count": 12, "tags": ["swift", "async"],
         "prerequisite_id": null, "active": true,
         "description": "Structured concurrency."}
        """
}
