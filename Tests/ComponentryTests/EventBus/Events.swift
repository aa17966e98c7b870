import Componentry

struct LoginEvent: BusEvent {
    let userID: String
}

struct BillSaved: BusEvent {
    let amount: Double
    let kind: String?
    var subType: String? { kind }

    init(amount: Double, kind: String? = nil) {
        self.amount = amount
        self.kind = kind
    }
}

struct Tick: BusEvent {
    let value: Int
}

/// A plain Swift class used as a subscription owner.
final class Owner: LifetimeOwner {}
