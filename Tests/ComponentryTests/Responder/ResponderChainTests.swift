import Componentry
import Testing

@MainActor
@Suite("Responder chain")
struct ResponderChainTests {
    @Test func anEventBubblesToTheFirstResponderWithAHandler() {
        let top = Taker("top")
        let chain = Chain { index, parent in index == 9 ? top as any Responder : Plain("view \(index)", parent: parent) }
        let taker = chain.leaf.raise(.cardTapped, "revenue")
        #expect(taker === top)
        #expect(top.received == ["revenue"])
    }

    @Test func aLowerResponderWithAHandlerInterceptsTheEvent() {
        let top = Taker("top")
        let chain = Chain { index, parent in
            switch index {
            case 9: top
            case 4: Taker("middle", parent: parent)
            default: Plain("view \(index)", parent: parent)
            }
        }
        let taker = chain.leaf.raise(.cardTapped, "revenue")
        #expect(taker === chain.responders[4])
        #expect((chain.responders[4] as? Taker)?.received == ["revenue"])
        #expect(top.received.isEmpty)
    }

    @Test func aHandlerThatPassesOnLetsTheEventContinue() {
        let top = Taker("top")
        let chain = Chain { index, parent in
            switch index {
            case 9: top
            case 2, 6: Logger(parent: parent)
            default: Plain("view \(index)", parent: parent)
            }
        }
        let taker = chain.leaf.raise(.cardTapped, "users")
        #expect(taker === top)
        #expect((chain.responders[2] as? Logger)?.logged == ["users"])
        #expect((chain.responders[6] as? Logger)?.logged == ["users"])
        #expect(top.received == ["users"])
    }

    @Test func anUnhandledEventReachesTheFallbackWithItsPath() {
        var unhandled: [ResponderTrace] = []
        ResponderChain.unhandledEventHandler = { unhandled.append($0) }
        defer { ResponderChain.unhandledEventHandler = nil }
        let chain = Chain { index, parent in
            index == 3 ? Logger(parent: parent) as any Responder : Plain("view \(index)", parent: parent)
        }

        let taker = chain.leaf.raise(.cardTapped, "events")

        #expect(taker == nil)
        #expect(unhandled.count == 1)
        #expect(unhandled.first?.event == "cardTapped")
        #expect(unhandled.first?.payload as? String == "events")
        #expect(unhandled.first?.steps.map { ObjectIdentifier($0.responder) } == chain.responders.map(ObjectIdentifier.init))
        #expect(unhandled.first?.steps.map(\.disposition) == [nil, nil, nil, .passOn, nil, nil, nil, nil, nil, nil])
        #expect(unhandled.first?.handler == nil)
    }

    @Test func theTracerSeesThePathUpToTheTaker() {
        var traces: [ResponderTrace] = []
        ResponderChain.tracer = { traces.append($0) }
        defer { ResponderChain.tracer = nil }
        let chain = Chain { index, parent in
            switch index {
            case 7: Taker("controller", parent: parent)
            case 1: Logger(parent: parent)
            default: Plain("view \(index)", parent: parent)
            }
        }

        chain.leaf.raise(.cardTapped, "dau")

        #expect(traces.count == 1)
        #expect(traces.first?.steps.map(\.disposition) == [nil, .passOn, nil, nil, nil, nil, nil, .handled])
        #expect(traces.first?.handler === chain.responders[7])
    }

    @Test func eventsAreToldApartByNameAndPayloadType() {
        let top = Taker("top")
        let leaf = Plain("leaf", parent: top)
        #expect(leaf.raise(.cardTappedAt, 3) == nil)  // same name, Int payload: not handled
        #expect(leaf.raise(.cardTapped, "three") === top)
        #expect(top.received == ["three"])
    }

    @Test func eventsWithoutPayloadAreRaisedByName() {
        let top = Taker("top")
        Plain("leaf", parent: top).raise(.refresh)
        #expect(top.received == ["refresh"])
    }

    @Test func aTypesHandlerTableIsBuiltOnce() {
        for index in 0..<20 {
            let top = Taker("top \(index)")
            Plain("leaf", parent: top).raise(.cardTapped, "x")
            Plain("leaf", parent: top).raise(.refresh)
        }
        // Built once per process (maybe by an earlier test), never per instance or event.
        #expect(Taker.tablesBuilt == 1)
    }

    @Test func anInstanceHandlerComesBeforeTheTypesAndCanBeRemoved() {
        let top = Taker("top")
        let middle = Taker("middle", parent: top)
        let leaf = Plain("leaf", parent: middle)
        var seen: [String] = []
        middle.handle(.cardTapped) { responder, card in seen.append("\(responder.name) instance \(card)") }

        leaf.raise(.cardTapped, "a")
        middle.removeHandler(for: .cardTapped)
        leaf.raise(.cardTapped, "b")

        #expect(seen == ["middle instance a"])
        #expect(middle.received == ["b"])
        #expect(top.received.isEmpty)
    }

    @Test func anInstanceHandlerCanPassOnAndMakesAPlainResponderHandle() {
        let top = Taker("top")
        let middle = Plain("middle", parent: top)
        let leaf = Plain("leaf", parent: middle)
        var seen: [String] = []
        middle.handle(.cardTapped) { responder, card -> ResponderDisposition in
            seen.append(responder.name)
            return card == "mine" ? .handled : .passOn
        }

        #expect(leaf.raise(.cardTapped, "mine") === middle)
        #expect(leaf.raise(.cardTapped, "theirs") === top)
        #expect(seen == ["middle", "middle"])
        #expect(top.received == ["theirs"])
    }

    @Test func anInstanceHandlerEndsWithItsResponder() {
        var seen = 0
        var middle: Plain? = Plain("middle", parent: nil)
        middle!.handle(.refresh) { _, _ in seen += 1 }
        middle = nil
        // A new object may reuse the address; it must not inherit the handler.
        let fresh = (0..<100).map { Plain("fresh \($0)", parent: nil) }
        for responder in fresh { responder.raise(.refresh) }
        #expect(seen == 0)
    }
}
