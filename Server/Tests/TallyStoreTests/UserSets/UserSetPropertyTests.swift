import PropertyBased
import Testing

@testable import TallyStore

/// ``UserSet`` against `Set<UInt32>` on generated sets, sparse (array chunks) and dense
/// (bitmap chunks, past ``UserSet/arrayLimit`` numbers in a 65,536-number chunk), across
/// several chunks. Every set made is checked against its storage's invariants
/// (``UserSet/_checkInvariants()``).
@Suite struct UserSetPropertyTests {
    /// Numbers over four chunks, about 2,000 to a chunk: array chunks, some near the limit.
    static let sparse = Gen.uint32(in: 0...(4 << 16)).array(of: 0...8_000)
    /// Numbers in the first two chunks' first 12,000 values: bitmap chunks, some crossing the
    /// limit in both directions as numbers are added and removed.
    static let dense = Gen.uint32(in: 0...12_000).array(of: 0...9_000)
        .map { $0.map { $0 % 2 == 0 ? $0 : $0 + (1 << 16) } }

    @Test func holdsWhatASetHolds() async {
        for generator in [Self.sparse, Self.dense] {
            await propertyCheck(count: 60, input: generator) { numbers in
                let set = UserSet(numbers)
                set._checkInvariants()
                let expected = Set(numbers)
                #expect(set.count == expected.count)
                #expect(Array(set) == expected.sorted())
                var visited: [UInt32] = []
                set.forEach { visited.append($0) }
                #expect(visited == expected.sorted())
                for number in numbers.prefix(50) { #expect(set.contains(number)) }
                for number in numbers.prefix(50) where !expected.contains(number &+ 1) { #expect(!set.contains(number &+ 1)) }
            }
        }
    }

    @Test func setAlgebraMatchesSet() async {
        for generator in [Self.sparse, Self.dense] {
            await propertyCheck(count: 60, input: generator, generator) { a, b in
                let left = UserSet(a)
                let right = UserSet(b)
                let expectedLeft = Set(a)
                let expectedRight = Set(b)
                for set in [left, right, left.union(right), UserSet.union([left, right])] { set._checkInvariants() }
                var formed = left
                formed.formUnion(right)
                formed._checkInvariants()
                #expect(formed == left.union(right))
                #expect(Array(left.union(right)) == expectedLeft.union(expectedRight).sorted())
                #expect(left.union(right) == right.union(left))
                #expect(UserSet.union([left, right, left]) == left.union(right))
                #expect(UserSet.union([UserSet]()) == UserSet())
                #expect(left.intersectionCount(right) == expectedLeft.intersection(expectedRight).count)
            }
        }
    }

    /// Equal sets compare equal however they were built: chunks shrunk back under the limit
    /// by removals are arrays again.
    @Test func removalsLeaveTheSetOfTheRemainingNumbers() async {
        for generator in [Self.sparse, Self.dense] {
            await propertyCheck(count: 60, input: generator, generator) { a, b in
                var set = UserSet(a)
                var expected = Set(a)
                for (index, number) in b.enumerated() {
                    #expect(set.remove(number) == (expected.remove(number) != nil))
                    // Every 64th removal: a bitmap's check reads its 1,024 words.
                    if index % 64 == 0 { set._checkInvariants() }
                }
                set._checkInvariants()
                #expect(set == UserSet(expected))
                #expect(set.count == expected.count)
                #expect(set.isEmpty == expected.isEmpty)
            }
        }
    }

    @Test func serializedBytesDecodeToTheSameSet() async {
        for generator in [Self.sparse, Self.dense] {
            await propertyCheck(count: 60, input: generator) { numbers in
                let set = UserSet(numbers)
                let decoded = try? UserSet(serialized: set.serialized)
                decoded?._checkInvariants()
                #expect(decoded == set)
            }
        }
        #expect(UserSet().serialized.isEmpty)
    }

    /// The check traps on storage that breaks a rule: chunks out of order, an array past the
    /// limit.
    @Test func theInvariantCheckCatchesBrokenStorage() async {
        await #expect(processExitsWith: .failure) {
            var set: UserSet = [70_000, 1]
            set.keys.reverse()
            set._checkInvariants()
        }
        await #expect(processExitsWith: .failure) {
            var set = UserSet()
            set.keys = [0]
            set.containers = [UserSet.Container(sorted: [])]
            set._checkInvariants()
        }
    }

    /// Damaged bytes (cut short, or any bytes at all) are refused or decode to a valid set;
    /// they never trap.
    @Test func damagedBytesAreRefusedWithoutTrapping() async {
        await propertyCheck(count: 200, input: Gen.uint8().array(of: 0...40)) { bytes in
            guard let set = try? UserSet(serialized: bytes) else { return }
            set._checkInvariants()
            #expect((try? UserSet(serialized: set.serialized)) == set)
        }
        await propertyCheck(count: 60, input: Self.dense, Gen.int(in: 1...100)) { numbers, cut in
            let bytes = UserSet(numbers).serialized
            guard cut < bytes.count else { return }  // with every byte cut, the bytes are the empty set's
            #expect(throws: UserSet.FormatError.self) { try UserSet(serialized: Array(bytes.dropLast(cut))) }
        }
        let outOfOrder: [UInt8] = [1, 0, 1, 0, 5, 0, 3, 0]
        #expect(throws: UserSet.FormatError.self) { try UserSet(serialized: outOfOrder) }
    }
}
