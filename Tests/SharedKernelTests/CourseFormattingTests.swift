import Foundation
import SharedKernel
import TestSupport
import Testing

@Suite("Course values as the catalog shows them")
struct CourseFormattingTests {
    @Test(
        "durations read as hours and minutes",
        arguments: [
            (150, "2h 30min"), (45, "45min"), (180, "3h"), (61, "1h 1min"), (600, "10h"),
        ])
    func duration(minutes: Int, expected: String) {
        #expect(DurationText.format(minutes: minutes).english == expected)
    }

    @Test(
        "prices show two decimals and the currency, zero is free",
        arguments: [
            (3599, "EUR", "35.99 EUR"), (4900, "USD", "49.00 USD"), (999, "GBP", "9.99 GBP"),
            (5, "EUR", "0.05 EUR"), (0, "EUR", "Free"),
        ])
    func price(minorUnits: Int, currency: String, expected: String) {
        #expect(Texts.english("\(Price(minorUnits: minorUnits, currency: currency))") == expected)
    }

    @Test("seats left is capacity minus enrolled, never negative, nil when unlimited")
    func seatsLeft() {
        #expect(Course.fixture(capacity: 40, enrolledCount: 12).seatsLeft == 28)
        #expect(Course.fixture(capacity: 10, enrolledCount: 10).isFull)
        #expect(Course.fixture(capacity: 10, enrolledCount: 12).seatsLeft == 0)
        #expect(Course.fixture(capacity: nil, enrolledCount: 500).seatsLeft == nil)
        #expect(!Course.fixture(capacity: nil, enrolledCount: 500).isFull)
    }

    @Test("days read as day, short month, year in any locale")
    func date() {
        let utc = TimeZone(identifier: "UTC")!

        #expect(Texts.english.day(Date(timeIntervalSince1970: 1_763_769_600), timeZone: utc) == "22 Nov 2025")
        #expect(Texts.english.day(Date(timeIntervalSince1970: 0), timeZone: utc) == "1 Jan 1970")
    }

    @Test("every error has a message for people and one for the log")
    func errorMessages() {
        let errors: [AppError] = [
            .connectivity, .courseNotFound("x"), .notSignedIn, .storage(.reading, detail: "disk I/O error"), .cancelled,
            .noSuchLesson("x", 3), .invalidAccount(AccountRejection(field: .email, message: "Enter a valid email address")),
        ]
        for error in errors {
            #expect(!error.userMessage.english.isEmpty)
            #expect(!error.technicalMessage.isEmpty)
        }
        #expect(!AppError.storage(.reading, detail: "disk I/O error").userMessage.english.contains("disk"))
        #expect(AppError.storage(.reading, detail: "disk I/O error").technicalMessage.contains("disk I/O error"))
    }

    @Test("a failed read and a failed save say which it was")
    func readingOrSaving() {
        #expect(AppError.storage(.reading, detail: "x").userMessage == "Something went wrong while reading your data.")
        #expect(AppError.storage(.saving, detail: "x").userMessage == "Something went wrong while saving your data.")
    }
}
