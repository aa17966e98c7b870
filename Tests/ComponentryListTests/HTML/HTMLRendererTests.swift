import ComponentryList
import Foundation
import Testing

@Suite("HTML renderer")
struct HTMLRendererTests {
    let renderer = HTMLRenderer()

    /// A rendered list from a test snapshot: groups become components, rows items.
    func rendered(_ snapshot: Snapshot) -> RenderedList {
        RenderedList(
            sections: snapshot.sections.map { section in
                ListSection(
                    RenderedComponent(id: section.model.id, header: section.model.title.isEmpty ? nil : Cell("title", ["text": section.model.title])),
                    items: section.items.map { RenderedItem(id: ItemIdentity(of: $0), cell: Cell("row", ["text": "\($0)"])) }
                )
            })
    }

    @Test func textAndAttributesAreEscaped() {
        let list = RenderedList(sections: [
            ListSection(
                RenderedComponent(id: "a\"b <c>", header: Cell("t", ["x\"": "<script>alert('x')</script> & more"])),
                items: []
            )
        ])
        let html = renderer.render(list)
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more"))
        #expect(html.contains("data-field=\"x&quot;\""))
        #expect(html.contains("id=\"list-c-a_22b_20_3Cc_3E\""))
    }

    @Test func elementIDsAreStableValidAndDistinct() {
        let ids = ["a-i-b", "a", "a_2D", "ü", "a b"].map { renderer.elementID(ofComponent: $0) }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } })
        let item = ItemIdentity(of: Row(id: 7))
        #expect(renderer.elementID(ofItem: item, inComponent: "a-i-b") != renderer.elementID(ofItem: ItemIdentity(of: Row(id: 0)), inComponent: "a"))
        #expect(renderer.elementID(ofItem: item, inComponent: "x") == "list-c-x-i-7")
    }

    @Test func gridFollowsDistributionRatioSpacingAndInsets() {
        let layout = ComponentLayout(
            insets: ListInsets(top: 1, left: 2, bottom: 3, right: 4), lineSpacing: 8, interitemSpacing: 6,
            distribution: .columns(3), itemRatio: .aspect(1.5)
        )
        let html = renderer.render(RenderedList(sections: [ListSection(RenderedComponent(id: "grid", layout: layout), items: [])]))
        #expect(
            html.contains(
                "<style>#list-c-grid-items{display:grid;column-gap:6px;row-gap:8px;padding:1px 4px 3px 2px;"
                    + "grid-template-columns:repeat(3,minmax(0,1fr));}#list-c-grid-items>*{aspect-ratio:1.5}</style>"))
    }

    /// The layout is in one `<style>` per component, none in `style` attributes, which a
    /// `Content-Security-Policy` without `'unsafe-inline'` never applies; each `<style>`
    /// carries the nonce given, escaped, so the policy's `'nonce-…'` applies it.
    @Test func layoutIsOneStyleElementPerComponentWithTheNonce() {
        let list = rendered(Snapshot(["a": [1, 2], "b": [3], "c": []]))
        #expect(!renderer.render(list).contains(" style="))
        #expect(!renderer.render(list).contains("nonce"))
        let html = HTMLRenderer(styleNonce: "n0/+=\"").render(list)
        #expect(!html.contains(" style="))
        #expect(html.components(separatedBy: "<style nonce=\"n0/+=&quot;\">").count == 4)
        #expect(html.components(separatedBy: "<style").count == 4)
        #expect(html.contains("<section id=\"list-c-b\" class=\"list-component\"><style nonce=\"n0/+=&quot;\">#list-c-b-items{display:grid;"))
        #expect(html.contains("<div id=\"list-c-b-items\" class=\"list-items\"><div id=\"list-c-b-i-3\""))
    }

    /// A patch that brings a component brings its `<style>`, with the renderer's nonce.
    @Test func insertedAndReconfiguredComponentsBringTheirStyle() {
        let old = rendered(Snapshot(["a": [1]]))
        let new = rendered(Snapshot(["a": [1], "b": [2]]))
        let patches = HTMLRenderer(styleNonce: "abc").patch(from: old, applying: old.changes(to: new))
        guard case .insert(_, _, let html) = patches.first else {
            Issue.record("no insert: \(patches)")
            return
        }
        #expect(html.hasPrefix("<section id=\"list-c-b\" class=\"list-component\"><style nonce=\"abc\">#list-c-b-items{"))
    }

    /// Ids are made of letters, digits, `_` and `-`, but a CSS identifier cannot begin with
    /// a digit: the selector escapes it, so a root id such as "1" still keys its rules.
    @Test func selectorsOfIDsBeginningWithADigitAreEscaped() {
        let renderer = HTMLRenderer(rootID: "2026")
        let component = RenderedComponent(id: "grid", layout: ComponentLayout(itemRatio: .aspect(2)))
        #expect(renderer.styleSheet(of: component).hasPrefix(#"#\32 026-c-grid-items{display:grid;"#))
        #expect(renderer.styleSheet(of: component).hasSuffix(#"#\32 026-c-grid-items>*{aspect-ratio:2}"#))
        #expect(HTMLRenderer(rootID: "").styleSheet(of: component).hasPrefix("#-c-grid-items{"))
    }

    @Test func horizontalComponentIsAScrollSnapRow() {
        let layout = ComponentLayout(interitemSpacing: 10, distribution: .columns(2), itemRatio: .height(80), snapping: .paging)
        let html = renderer.render(
            RenderedList(sections: [ListSection(RenderedComponent(id: "shelf", arrangement: .horizontal, layout: layout), items: [])]))
        #expect(
            html.contains(
                "#list-c-shelf-items{display:grid;column-gap:10px;row-gap:0px;padding:0px 0px 0px 0px;grid-auto-rows:80px;grid-auto-flow:column;"
                    + "grid-auto-columns:calc((100% - 10px) / 2);overflow-x:auto;scroll-snap-type:x mandatory;scroll-padding-left:0px;}"
                    + "#list-c-shelf-items>:nth-child(2n+1){scroll-snap-align:start}</style>"))
    }

    /// A fraction so small that one page would hold more than `Int.max` items, or no
    /// number at all, still renders: pages are capped, numbers in CSS are finite.
    @Test(arguments: [1e-300, .leastNonzeroMagnitude, 0, -1, .nan, .infinity, -.infinity])
    func anyNumberRendersAsFiniteCSS(value: Double) {
        for distribution in [ComponentLayout.Distribution.fraction(value), .width(value), .columns(.max), .columns(.min)] {
            let layout = ComponentLayout(
                insets: ListInsets(all: value), lineSpacing: value, interitemSpacing: value, distribution: distribution,
                itemRatio: .aspect(value), snapping: .paging
            )
            for arrangement in [Arrangement.horizontal, .vertical] {
                let html = renderer.render(
                    RenderedList(sections: [ListSection(RenderedComponent(id: "row", arrangement: arrangement, layout: layout), items: [])]))
                #expect(!html.contains("nan") && !html.contains("inf"), "\(html)")
            }
        }
        let pages = ComponentLayout(distribution: .fraction(1e-300), snapping: .paging)
        let html = renderer.render(
            RenderedList(sections: [ListSection(RenderedComponent(id: "row", arrangement: .horizontal, layout: pages), items: [])]))
        #expect(html.contains(":nth-child(1000000n+1)"))
    }

    @Test func patchesAreOneOperationPerChange() {
        let old = rendered(Snapshot(["a": [1, 2, 3], "b": [4]]))
        let new = rendered(Snapshot(["a": [3, 1, 5], "b": [4, 2]]))
        let patches = renderer.patch(from: old, applying: old.changes(to: new))
        #expect(
            patches == [
                .move(id: "list-c-a-i-1", parent: "list-c-a-items", index: 2, newID: "list-c-a-i-1"),
                .move(id: "list-c-a-i-2", parent: "list-c-b-items", index: 1, newID: "list-c-b-i-2"),
                .insert(
                    parent: "list-c-a-items", index: 2,
                    html: "<div id=\"list-c-a-i-5\" class=\"cell cell-row\"><span data-field=\"text\">5</span></div>"),
            ])
    }

    /// The DOM the script leaves after a patch is the DOM of the new render: the same
    /// elements, ids, order and content.
    @Test(arguments: 0..<200 as Range<UInt64>)
    func patchedDOMIsTheNewRender(seed: UInt64) {
        var snapshots = RandomSnapshots(seed: seed)
        let first = snapshots.next()
        for new in [snapshots.next(), snapshots.edit(first)] {
            let old = rendered(first)
            let target = rendered(new)
            let dom = Element.parse(renderer.render(old))
            #expect(dom.html == renderer.render(old))
            dom.apply(renderer.patch(from: old, applying: old.changes(to: target)))
            #expect(dom.html == renderer.render(target))
        }
    }

    @Test func scriptHandlesEveryOperationTheJSONNames() throws {
        let patches: [DOMPatch] = [
            .insert(parent: "p", index: 0, html: "<div></div>"), .remove(id: "a"),
            .move(id: "a", parent: "p", index: 1, newID: "b"), .replace(id: "a", html: "<div></div>"),
        ]
        let json = try #require(JSONSerialization.jsonObject(with: Data(HTMLRenderer.json(patches).utf8)) as? [[String: Any]])
        #expect(json[2]["newId"] as? String == "b")
        for op in json.compactMap({ $0["op"] as? String }) {
            #expect(HTMLRenderer.patchScript.contains("op.op === \"\(op)\""))
        }
        #expect(HTMLRenderer.patchScript.contains("function tallyApplyListPatch(ops, styleNonce)"))
        #expect(HTMLRenderer.patchScript.contains(#"querySelectorAll(".list-component > style")) style.nonce = styleNonce"#))
        #expect(HTMLRenderer.patchScript.utf8.count < 2_000)
    }
}
