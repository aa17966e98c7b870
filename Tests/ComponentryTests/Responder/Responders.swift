import Componentry
import Foundation

extension ResponderEvent<String> {
    static var cardTapped: Self { Self("cardTapped") }
}

extension ResponderEvent<Int> {
    /// Same name as ``cardTapped``, another payload type: another event.
    static var cardTappedAt: Self { Self("cardTapped") }
}

extension ResponderEvent<Void> {
    static var refresh: Self { Self("refresh") }
}

/// A responder with no handlers of its own type: a view in the middle of the chain.
@MainActor
final class Plain: Responder {
    let name: String
    let parent: (any Responder)?
    var nextInChain: (any Responder)? { parent }

    init(_ name: String, parent: (any Responder)?) {
        self.name = name
        self.parent = parent
    }
}

/// A responder whose type takes ``ResponderEvent/cardTapped`` and ``ResponderEvent/refresh``.
@MainActor
final class Taker: Responder {
    static var tablesBuilt = 0
    let name: String
    let parent: (any Responder)?
    var nextInChain: (any Responder)? { parent }
    var received: [String] = []

    init(_ name: String, parent: (any Responder)? = nil) {
        self.name = name
        self.parent = parent
    }
}

extension Taker: ResponderEventHandling {
    static func registerHandlers(in table: inout ResponderHandlerTable<Taker>) {
        tablesBuilt += 1
        table.on(.cardTapped) { taker, card in taker.received.append(card) }
        table.on(.refresh) { taker, _ in taker.received.append("refresh") }
    }
}

/// A responder whose type records ``ResponderEvent/cardTapped`` and passes it on.
@MainActor
final class Logger: Responder {
    let parent: (any Responder)?
    var nextInChain: (any Responder)? { parent }
    var logged: [String] = []

    init(parent: (any Responder)?) {
        self.parent = parent
    }
}

extension Logger: ResponderEventHandling {
    static func registerHandlers(in table: inout ResponderHandlerTable<Logger>) {
        table.on(.cardTapped) { logger, card in
            logger.logged.append(card)
            return .passOn
        }
    }
}

/// A chain of ten responders: index 0 is the leaf that raises, index 9 the top.
@MainActor
struct Chain {
    let responders: [any Responder]
    var leaf: any Responder { responders[0] }

    /// Builds the chain from the top down; `make(index, parent)` makes responder `index`.
    init(_ make: (Int, (any Responder)?) -> any Responder) {
        var built: [any Responder] = []
        var parent: (any Responder)?
        for index in (0..<10).reversed() {
            let responder = make(index, parent)
            built.insert(responder, at: 0)
            parent = responder
        }
        responders = built
    }
}
