import Benchmark
import DashboardWorkload
import Foundation
import TallyDashboard
import TallyEvent
import TallyStore

// The dashboard's first response against issue 13's targets, each beside its baseline:
//   metrics alone   — DayReport.load: every number the default layout shows for today
//                     (the day's rollups, property measures, 30-day trend, health, feed);
//   first response  — the same read, plus building the page (factory, manager, sections)
//                     and rendering the whole document: target p95 < 20 ms; also for the
//                     last 7 days compared with the 7 before (the range's headlines);
//   render alone    — the whole document of a page whose report is shown: target < 2 ms;
//   update          — the patches for a report with new numbers (what a live tick sends).
// The store is DemoApp: the demo's events for 240 users over 60 days.
//
//     swift package benchmark --target DashboardBenchmarks --no-progress

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(10), maxIterations: 1_000)

    Benchmark("dashboard/metrics alone (DayReport.load, demo app)") { benchmark in
        let (store, created) = try await Demo.shared.value
        let app = created.app
        let query = PageQuery(date: CalendarDay(DemoApp.today)!)
        for _ in benchmark.scaledIterations {
            blackHole(try await DayReport.load(from: store, app: app.id, layout: .default, query: query))
        }
    }

    for (name, days) in [("first response (page + metrics + HTML)", 1), ("first response, last 7 days compared", 7)] {
        Benchmark("dashboard/\(name)") { benchmark in
            let (store, created) = try await Demo.shared.value
            let app = created.app
            let today = CalendarDay(DemoApp.today)!
            let query = PageQuery(date: today, from: CalendarDay(daysSince1970: today.daysSince1970 + 1 - days), compare: days > 1)
            // On the main actor, as the page route builds it.
            nonisolated(unsafe) let benchmark = benchmark
            await Task { @MainActor in
                for _ in benchmark.scaledIterations {
                    benchmark.startMeasurement()
                    let page = DashboardPage(app: app, layout: .default, query: query, store: store)
                    await page.refresh()
                    blackHole(page.document(csrf: "token", styleNonce: "nonce"))
                    benchmark.stopMeasurement()
                }
            }.value
        }
    }

    Benchmark("dashboard/render alone (document of a shown page)") { benchmark in
        let (store, created) = try await Demo.shared.value
        let app = created.app
        let page = await DashboardPage(app: app, layout: .default, query: PageQuery(date: CalendarDay(DemoApp.today)!), store: store)
        await page.refresh()
        // Measured on the main actor, where pages live: a hop per iteration would measure
        // the harness's main queue instead.
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            for _ in benchmark.scaledIterations {
                benchmark.startMeasurement()
                blackHole(page.document(csrf: "token", styleNonce: "nonce"))
                benchmark.stopMeasurement()
            }
        }
    }

    Benchmark("dashboard/update (patches for new numbers)") { benchmark in
        let (store, created) = try await Demo.shared.value
        let app = created.app
        let query = PageQuery(date: CalendarDay(DemoApp.today)!)
        let page = await DashboardPage(app: app, layout: .default, query: query, store: store)
        let report = try await DayReport.load(from: store, app: app.id, layout: .default, query: query)
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            var next = report
            for iteration in benchmark.scaledIterations {
                next.metrics.dau = iteration
                next.metrics.events["bill_created", default: 0] += 1
                benchmark.startMeasurement()
                blackHole(page.show(next))
                benchmark.stopMeasurement()
            }
        }
    }
}

/// The demo store, made once per run.
enum Demo {
    static let shared = Task { try await DemoApp.make() }
}
