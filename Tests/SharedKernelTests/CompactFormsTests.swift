import SharedKernel
import Testing

/// A duration and a price in a narrow column (the catalog at 60 columns).
@Suite("Short forms of durations and prices")
struct CompactFormsTests {
    @Test("durations: 2h10, 5h, 45m, 10h05", arguments: [(130, "2h10"), (300, "5h"), (45, "45m"), (605, "10h05"), (-3, "0m")])
    func durations(minutes: Int, expected: String) {
        #expect(DurationText.compact(minutes: minutes) == expected)
    }

    @Test("prices: no cents when there are none, a short symbol, the language's decimal separator")
    func prices() {
        #expect(Language.english.compactAmount(Price(minorUnits: 2_500, currency: "EUR")) == "25 €")
        #expect(Language.english.compactAmount(Price(minorUnits: 3_599, currency: "EUR")) == "35.99 €")
        #expect(Language.spanish.compactAmount(Price(minorUnits: 3_599, currency: "EUR")) == "35,99 €")
        #expect(Language.english.compactAmount(Price(minorUnits: 4_900, currency: "USD")) == "49 US$")
        #expect(Language.english.compactAmount(Price(minorUnits: 120_000, currency: "JPY")) == "1200 JPY")
    }
}
