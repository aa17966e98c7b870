/// Days are consecutive integers, so day ranges are collections and `advanced(by:)` moves by days.
extension CivilDay: Strideable {
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.serial < rhs.serial }
    func distance(to other: Self) -> Int { other.serial - serial }
    func advanced(by n: Int) -> Self { Self(serial: serial + n) }
}
