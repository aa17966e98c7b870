import TallyDashboard
import TallyStore
import Testing

@Suite struct DashboardLayoutTests {
    /// The demo app's dashboard reproduces the original app's sections, in its order, and
    /// adds retention, revenue, top events, the live feed and data health.
    @Test func theDefaultLayoutHasTheOriginalSections() throws {
        let layout = try DashboardLayout(yaml: DashboardLayout.defaultText)
        #expect(layout == DashboardLayout.default)
        #expect(
            layout.sections.map(\.id) == [
                "app", "revenue", "versions", "retention", "bills", "bill_funnel", "entry_quality", "ads", "record_time", "sessions", "ratings",
                "screens", "top_events", "live", "health",
            ])
        #expect(
            layout.section("bill_funnel")?.content
                == .funnel(
                    DashboardLayout.Funnel(
                        steps: [
                            FunnelStep("screen_view", [.is("screen", "Home")]), FunnelStep("screen_view", [.is("screen", "BillEditor")]),
                            "bill_created",
                        ],
                        window: FunnelWindow("1h")!)))
        #expect(layout.section("app")?.content == .app)
        #expect(layout.section("retention")?.content == .retention)
        #expect(layout.section("revenue")?.content == .revenue)
        #expect(layout.section("screens")?.content == .screens(names: ["BillEditor": "Bill editor"]))
        #expect(layout.section("health")?.content == .dataHealth(unreliableShare: 0.05))
        guard case .metrics(let metrics)? = layout.section("entry_quality")?.content else {
            Issue.record("entry quality is not a metrics section")
            return
        }
        #expect(
            metrics.map(\.measure) == [
                .emptyShare(event: "bill_created", property: "note"), .emptyShare(event: "bill_created", property: "labels"),
            ])
    }

    @Test func everyMeasureReadsFromYAMLAndFromJSON() throws {
        let yaml = """
            sections:
              - id: s
                title: S
                metrics:
                  - {key: a, label: A, count: e}
                  - {key: b, label: B, per_user: e}
                  - {key: c, label: C, distinct_users: e}
                  - {key: d, label: D, average: {event: e, property: p, unit: s}}
                  - {key: f, label: F, empty_share: {event: e, property: p}}
                  - {key: g, label: G, breakdown: {event: e, property: p}}
            """
        let expected: [DashboardLayout.Measure] = [
            .count(event: "e"), .perUser(event: "e"), .distinctUsers(event: "e"),
            .average(event: "e", property: "p", unit: "s"), .emptyShare(event: "e", property: "p"),
            .breakdown(event: "e", property: "p"),
        ]
        #expect(
            try DashboardLayout(yaml: yaml).section("s")?.content
                == .metrics(
                    zip("abcdfg", expected).map { key, measure in
                        DashboardLayout.Metric(key: String(key), label: String(key).uppercased(), measure: measure)
                    }))
        let json = #"{"sections": [{"id": "s", "title": "S", "metrics": [{"key": "a", "label": "A", "count": "e"}]}]}"#
        #expect(try DashboardLayout(yaml: json).sections.count == 1)
    }

    /// A funnel section: its steps (names, or names with conditions) and its window in
    /// seconds, minutes, hours or days, a day when left out.
    @Test func aFunnelSectionReadsItsStepsAndWindow() throws {
        let yaml = """
            sections:
              - id: f
                title: F
                funnel: {steps: [app_open, "screen_view[screen==Checkout;platform!=android]", purchase], window: 30m}
              - id: g
                title: G
                funnel:
                  steps:
                    - login
                    - bill_created
            """
        let layout = try DashboardLayout(yaml: yaml)
        #expect(
            layout.section("f")?.content
                == .funnel(
                    DashboardLayout.Funnel(
                        steps: ["app_open", FunnelStep("screen_view", [.is("screen", "Checkout"), .isNot("platform", "android")]), "purchase"],
                        window: FunnelWindow(seconds: 1_800)!)))
        #expect(layout.section("g")?.content == .funnel(DashboardLayout.Funnel(steps: ["login", "bill_created"], window: .day)))
    }

    @Test(arguments: [("45s", 45), ("30m", 1_800), ("1h", 3_600), ("1d", 86_400), ("90d", 7_776_000)])
    func aWindowReadsInItsUnitAndWritesInItsLargest(text: String, seconds: Int) throws {
        let window = try #require(FunnelWindow(text))
        #expect(window.seconds == seconds)
        #expect(window.description == text)
        #expect(FunnelWindow(seconds: 7_200)?.description == "2h")
        #expect(FunnelWindow(seconds: 90)?.description == "90s")
    }

    @Test(arguments: ["", "d", "0d", "-1h", "1.5h", "91d", "10w", "60", "1 d"])
    func aWindowOutOfBoundsOrUnitIsRefused(text: String) {
        #expect(FunnelWindow(text) == nil)
    }

    /// A bad file is refused with the line and the field, so its author can fix it.
    @Test(arguments: [
        ("sections:\n  - {id: a, title: A, builtin: app}\n  - {id: b, titel: B, builtin: app}", 3, "sections[1].titel", "unknown field"),
        ("sections:\n  - {title: A, builtin: app}", 2, "sections[0].id", "missing"),
        ("sections:\n  - {id: a, title: A, builtin: app}\n  - {id: a, title: B, builtin: versions}", 3, "sections[1].id", "used twice"),
        (
            "sections:\n  - {id: a, title: A, builtin: app, metrics: [{key: k, label: K, count: e}]}", 2, "sections[0]",
            "one of metrics, builtin or funnel"
        ),
        ("sections:\n  - {id: f, title: F, funnel: {steps: [a]}}", 2, "sections[0].funnel.steps", "2 to 10 steps"),
        ("sections:\n  - {id: f, title: F, funnel: {steps: [a, b, c, d, e, f, g, h, i, j, k]}}", 2, "sections[0].funnel.steps", "2 to 10 steps"),
        ("sections:\n  - {id: f, title: F, funnel: {steps: [a, b], window: 2w}}", 2, "sections[0].funnel.window", "not a window"),
        ("sections:\n  - {id: f, title: F, funnel: {steps: [a, b], window: 91d}}", 2, "sections[0].funnel.window", "at most 90d"),
        ("sections:\n  - {id: f, title: F, funnel: {steps: [a, 'b[x=1]']}}", 2, "sections[0].funnel.steps[1]", "not a step"),
        ("sections:\n  - {id: f, title: F, funnel: {steps: [a, 'b,c']}}", 2, "sections[0].funnel.steps[1]", "one step per item"),
        ("sections:\n  - {id: f, title: F, funnel: {steps: [a, b], windows: 1d}}", 2, "sections[0].funnel.windows", "unknown field"),
        ("sections:\n  - {id: f, title: F, funnel: {window: 1d}}", 2, "sections[0].funnel.steps", "missing"),
        ("sections:\n  - {id: a, title: A, builtin: charts}", 2, "sections[0].builtin", "unknown built-in section"),
        ("sections:\n  - {id: 'a b', title: A, builtin: app}", 2, "sections[0].id", "only letters, digits"),
        ("sections:\n  - {id: h, title: H, builtin: data_health, unreliable_share: 5}", 2, "sections[0].unreliable_share", "from 0 to 1"),
        (
            "sections:\n  - id: s\n    title: S\n    metrics:\n      - {key: k, label: K, count: e, per_user: e}", 5, "sections[0].metrics[0]",
            "exactly one of"
        ),
        (
            "sections:\n  - id: s\n    title: S\n    metrics:\n      - {key: k, label: K, average: {event: e}}", 5,
            "sections[0].metrics[0].average.property", "missing"
        ),
        (
            "sections:\n  - id: s\n    title: S\n    metrics:\n      - {key: k, label: K, count: e}\n      - {key: k, label: L, count: f}", 6,
            "sections[0].metrics[1].key", "used twice"
        ),
        ("sections:\n  - {id: a, title: A, builtin: app\n", 3, "", "not valid YAML"),
        ("sections: []", 1, "sections", "at least one section"),
        ("", 1, "", "empty"),
    ])
    func aBadFileIsRefusedWithItsLineAndField(yaml: String, line: Int, field: String, message: String) {
        #expect {
            try DashboardLayout(yaml: yaml)
        } throws: { error in
            guard let error = error as? DashboardLayoutError else { return false }
            return error.line == line && error.field == field && error.message.contains(message)
        }
    }
}
