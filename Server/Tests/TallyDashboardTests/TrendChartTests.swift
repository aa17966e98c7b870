import Testing

@testable import TallyDashboard

/// The server-drawn chart: round gridlines above every value, dates on the time axis, the
/// series the page's script reads for its readout, and the table behind it.
@Suite struct TrendChartTests {
    /// For every largest value, the axis tops it with at most 4 steps of 1, 2 or 5 times a
    /// power of ten, starting at 0.
    @Test(arguments: [0, 1, 3, 4, 5, 9, 10, 11, 19, 20, 21, 99, 100, 101, 333, 999, 12_345, 4_000_000_000, Int.max / 3, Int.max])
    func theValueAxisIsRoundAndTopsTheLargestValue(maximum: Int) {
        let scale = ValueScale(maximum: maximum)
        #expect(scale.top >= maximum && scale.ticks.first == 0 && scale.ticks.last == scale.top)
        #expect((2...5).contains(scale.ticks.count))
        guard scale.ticks.count > 2 else { return }
        let step = scale.ticks[1]
        var power = step
        while power % 10 == 0 { power /= 10 }
        #expect([1, 2, 5].contains(power), "step \(step)")
        #expect(zip(scale.ticks, scale.ticks.dropFirst()).allSatisfy { $1 - $0 == step })
        // The smallest such step: one smaller would need more than 4.
        #expect(scale.top - step < maximum)
    }

    @Test func shortNumbersKeepTwoOrThreeDigits() {
        #expect(
            [0, 950, 999, 1_000, 1_250, 12_345, 999_499, 999_999, 3_400_000, -1_500].map(ValueScale.short)
                == ["0", "950", "999", "1k", "1.3k", "12k", "999k", "1M", "3.4M", "-1.5k"])
    }

    @Test func theTimeAxisNamesTheFirstAndLastDaysAndAFewBetween() {
        #expect(TrendChart.labelledDays(count: 0) == [])
        #expect(TrendChart.labelledDays(count: 1) == [0])
        #expect(TrendChart.labelledDays(count: 2) == [0, 1])
        #expect(TrendChart.labelledDays(count: 3) == [0, 1, 2])
        #expect(TrendChart.labelledDays(count: 30) == [0, 7, 14, 21, 29])
        #expect(TrendChart.shortDate("2026-11-24") == "24 Nov")
        #expect(TrendChart.shortDate("<b>") == "&lt;b&gt;")
    }

    /// The SVG carries what the script shows on hover, in order, and the table every day.
    @Test func theChartCarriesItsSeriesAndATable() {
        let dates = (1...30).map { "2026-11-\($0 < 10 ? "0" : "")\($0)" }
        let values = (1...30).map { $0 * 7 % 23 }
        let chart = TrendChart(dates: dates, values: values, previous: values.map { $0 + 1 }, title: "Daily <active> users")
        let html = chart.html
        #expect(html.contains("data-values=\"\(values.map(String.init).joined(separator: ","))\""))
        #expect(html.contains("data-dates=\"\(dates.joined(separator: ","))\""))
        #expect(html.contains("class=\"series previous\""))
        #expect(html.contains("Daily &lt;active&gt; users") && !html.contains("<active>"))
        #expect(html.components(separatedBy: "<tr><th scope=\"row\">").count - 1 == 30)
        #expect(html.contains("<output class=\"chart-readout\""))
        #expect(html.contains("tabindex=\"0\""))
    }
}
