import Componentry
import Foundation
import Testing

@Suite("Observable changes")
struct ObservableChangeTests {
    @Test func didChangeGetsNewAndOldBeforeTheSetReturns() {
        let count = Observable(0)
        let seen = Recorder<[Int]>()
        count.observe().didChange { new, old in seen.append([new, old]) }
        count.value = 1
        #expect(seen.values == [[1, 0]])
        count.value = 5
        #expect(seen.values == [[1, 0], [5, 1]])
        #expect(count.value == 5)
    }

    @Test func willChangeRunsBeforeTheValueChangesAndDidChangeAfter() {
        let count = Observable(0)
        let order = Recorder<String>()
        count.observe().didChange { new, _ in order.append("did \(new), holding \(count.value)") }
        count.observe().willChange { new in order.append("will \(new), holding \(count.value)") }
        count.value = 1
        #expect(order.values == ["will 1, holding 0", "did 1, holding 1"])
    }

    @Test func initialIsCalledAtOnceOnlyWhenAsked() {
        let title = Observable("draft")
        let plain = Recorder<[String]>()
        let initial = Recorder<[String]>()
        title.observe().didChange { plain.append([$0, $1]) }
        title.observe().initial().didChange { initial.append([$0, $1]) }
        #expect(plain.values.isEmpty)
        #expect(initial.values == [["draft", "draft"]])
        title.value = "final"
        #expect(initial.values == [["draft", "draft"], ["final", "draft"]])
    }

    @Test func equalValuesAreNotChanges() {
        let title = Observable("a")
        let changes = Counter()
        title.observe().didChange { _, _ in changes.increment() }
        title.value = "a"
        title.value = "b"
        title.value = "b"
        #expect(changes.count == 1)
    }

    @Test func theSameInstanceIsNotAChangeButAnotherOneIs() {
        let first = Photo("beach")
        let photo = Observable(first)
        let seen = Recorder<String>()
        photo.observe().didChange { new, _ in seen.append(new.name) }
        photo.value = first
        photo.value = Photo("beach")  // another instance, however alike
        #expect(seen.values == ["beach"])
        #expect(photo.value !== first)
    }

    @Test func equatableClassesCompareByEqualityUnlessAskedForInstances() {
        let byEquality = Observable(Note("x"))
        let byInstance = Observable(Note("x"), fires: .ifNewInstance)
        let equalityChanges = Counter()
        let instanceChanges = Counter()
        byEquality.observe().didChange { _, _ in equalityChanges.increment() }
        byInstance.observe().didChange { _, _ in instanceChanges.increment() }
        byEquality.value = Note("x")
        byInstance.value = Note("x")
        #expect(equalityChanges.count == 0)
        #expect(instanceChanges.count == 1)
    }

    @Test func valuesThatAreNotEquatableFireOnEverySet() {
        let draft = Observable(Draft(text: "a"))
        let changes = Counter()
        draft.observe().didChange { _, _ in changes.increment() }
        draft.value = Draft(text: "a")
        draft.value = Draft(text: "a")
        #expect(changes.count == 2)
    }

    @Test func theChangeFilterIsConfigurable() {
        let always = Observable(1, fires: .always)
        let byParity = Observable(1, fires: .unless { $0 % 2 == $1 % 2 })
        let alwaysSeen = Recorder<Int>()
        let paritySeen = Recorder<Int>()
        always.observe().didChange { new, _ in alwaysSeen.append(new) }
        byParity.observe().didChange { new, _ in paritySeen.append(new) }
        for value in [1, 3, 4, 6, 7] {
            always.value = value
            byParity.value = value
        }
        #expect(alwaysSeen.values == [1, 3, 4, 6, 7])
        #expect(paritySeen.values == [4, 7])
    }

    @Test func copyStorageStoresACopyAndKeepStoresTheInstance() {
        let original = Note("hello")
        let copied = Observable(original, storage: .copy)
        let kept = Observable(original, storage: .keep)
        #expect(copied.value !== original)
        #expect(kept.value === original)

        let next = Note("next")
        copied.value = next
        next.text = "edited after the set"
        #expect(copied.value.text == "next")
        #expect(copied.value !== next)
    }

    @Test func updateChangesInPlaceAndNotifies() {
        let items = Observable([1, 2])
        let seen = Recorder<[[Int]]>()
        items.observe().didChange { new, old in seen.append([new, old]) }
        items.update { $0.append(3) }
        #expect(items.value == [1, 2, 3])
        #expect(seen.values == [[[1, 2, 3], [1, 2]]])
        items.update { _ in }  // no change: equal values are dropped
        #expect(seen.count == 1)
    }

    @Test func updateOnEightThreadsLosesNoChange() async {
        let threads = 8
        let perThread = 500
        let counter = Observable(0)
        let steps = Counter()
        let broken = Counter()
        counter.observe().didChange { new, old in
            steps.increment()
            if new != old + 1 { broken.increment() }
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threads {
                group.addTask { await runOnThread { for _ in 0..<perThread { counter.update { $0 += 1 } } } }
            }
        }
        #expect(counter.value == threads * perThread)
        #expect(steps.count == threads * perThread)
        #expect(broken.count == 0)
    }

    @Test func aSetFromInsideAnObserverIsDeliveredAfterTheCurrentChange() {
        let level = Observable(0)
        let first = Recorder<[Int]>()
        let second = Recorder<[Int]>()
        level.observe().didChange { new, old in
            first.append([new, old])
            if new > 10 { level.value = 10 }  // clamp: queued, not nested
        }
        level.observe().didChange { new, old in second.append([new, old]) }
        level.value = 15
        #expect(level.value == 10)
        #expect(first.values == [[15, 0], [10, 15]])
        #expect(second.values == [[15, 0], [10, 15]])
    }

    @Test func theReadOnlyFaceReadsAndObserves() {
        final class DateModel {
            private let date = Observable(Date(timeIntervalSince1970: 0))
            var selectedDate: ReadOnlyObservable<Date> { date.readOnly }
            func select(_ day: Date) { date.value = day }
        }
        let model = DateModel()
        let seen = Recorder<Date>()
        model.selectedDate.observe().initial().didChange { new, _ in seen.append(new) }
        model.select(Date(timeIntervalSince1970: 86_400))
        #expect(model.selectedDate.value == Date(timeIntervalSince1970: 86_400))
        #expect(seen.values == [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 86_400)])
    }
}
