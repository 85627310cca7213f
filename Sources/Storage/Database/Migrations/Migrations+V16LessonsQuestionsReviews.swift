import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v16-lessons-questions-reviews`: lessons to read and questions to answer: bodies and
    /// questions kept apart from the syllabus (a course page reads titles only), answers with
    /// the SM-2 schedule of the card each starts, and the days a learner reviewed (with lessons
    /// done, the streak). The built-in courses get their content where they are still the built-
    /// in course.
    static func v16LessonsQuestionsReviews(_ db: Database, seedCatalog: () throws -> [CourseEntry]) throws {
        try db.execute(
            sql: """
                ALTER TABLE lesson ADD COLUMN question_count INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE lesson_content (
                    course_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    body TEXT,
                    questions TEXT,
                    PRIMARY KEY (course_id, position),
                    FOREIGN KEY (course_id, position) REFERENCES lesson(course_id, position) ON DELETE CASCADE
                );
                CREATE TABLE answer (
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    course_id TEXT NOT NULL,
                    lesson INTEGER NOT NULL CHECK (lesson >= 1),
                    question INTEGER NOT NULL CHECK (question >= 0),
                    chosen TEXT NOT NULL,
                    is_right INTEGER NOT NULL,
                    answered_day INTEGER NOT NULL,
                    repetitions INTEGER NOT NULL,
                    ease_millis INTEGER NOT NULL,
                    interval_days INTEGER NOT NULL,
                    due_day INTEGER NOT NULL,
                    PRIMARY KEY (user_id, course_id, lesson, question)
                ) WITHOUT ROWID;
                CREATE INDEX answer_by_due ON answer(user_id, due_day);
                CREATE TABLE review_day (
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    day INTEGER NOT NULL,
                    PRIMARY KEY (user_id, day)
                ) WITHOUT ROWID;
                """)
        for entry in try seedCatalog() {
            guard let lessons = entry.lessons, lessons.contains(where: { $0.content != nil }),
                let stored = try Row.fetchOne(
                    db, sql: "SELECT title, lesson_count FROM course WHERE id = ?", arguments: [entry.course.id.rawValue]),
                stored["title"] == entry.course.title, stored["lesson_count"] == lessons.count
            else { continue }
            try CourseRow.storeLessons(lessons, of: entry.course.id, in: db)
        }
    }
}
