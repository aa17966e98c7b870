import Benchmark
import DashboardWorkload
import Foundation
import TallyDashboard
import TallyStore

// The dashboard's first response against issue 13's targets, each beside its baseline:
//   metrics alone   — DayReport.load: every number the default layout shows for today
//                     (the day's rollups, property measures, 30-day trend, health, feed);
//   first response  — the same read, plus building the page (factory, manager, sections)
//                     and rendering the whole document: target p95 < 20 ms;
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
        let query = PageQuery(date: Day(DemoApp.today)!)
        for _ in benchmark.scaledIterations {
            blackHole(try await DayReport.load(from: store, app: app.id, layout: .default, query: query))
        }
    }

    Benchmark("dashboard/first response (page + metrics + HTML)") { benchmark in
        let (store, created) = try await Demo.shared.value
        let app = created.app
        let query = PageQuery(date: Day(DemoApp.today)!)
        for _ in benchmark.scaledIterations {
            let page = await DashboardPage(app: app, layout: .default, query: query, store: store)
            await page.refresh()
            blackHole(await page.document(csrf: "token"))
        }
    }

    Benchmark("dashboard/render alone (document of a shown page)") { benchmark in
        let (store, created) = try await Demo.shared.value
        let app = created.app
        let page = await DashboardPage(app: app, layout: .default, query: PageQuery(date: Day(DemoApp.today)!), store: store)
        await page.refresh()
        for _ in benchmark.scaledIterations {
            blackHole(await page.document(csrf: "token"))
        }
    }

    Benchmark("dashboard/update (patches for new numbers)") { benchmark in
        let (store, created) = try await Demo.shared.value
        let app = created.app
        let query = PageQuery(date: Day(DemoApp.today)!)
        let page = await DashboardPage(app: app, layout: .default, query: query, store: store)
        var report = try await DayReport.load(from: store, app: app.id, layout: .default, query: query)
        for iteration in benchmark.scaledIterations {
            report.metrics.dau = iteration
            report.metrics.events["bill_created", default: 0] += 1
            let next = report
            benchmark.startMeasurement()
            blackHole(await page.show(next))
            benchmark.stopMeasurement()
        }
    }
}

/// The demo store, made once per run.
enum Demo {
    static let shared = Task { try await DemoApp.make() }
}
