import Componentry
import Dispatch
import Foundation
import Testing

@Suite("Observable lifetimes")
struct ObservableLifetimeTests {
    @Test func aDisposedObserverIsNotCalledAgain() {
        let count = Observable(0)
        let seen = Recorder<Int>()
        let observation = count.observe().didChange { new, _ in seen.append(new) }
        count.value = 1
        observation.dispose()
        count.value = 2
        #expect(seen.values == [1])
    }

    @Test func anOwnedObservationEndsWithItsOwner() {
        let count = Observable(0)
        let seen = Recorder<Int>()
        var owner: Owner? = Owner()
        count.observe().owner(owner!).didChange { _, new, _ in seen.append(new) }
        count.value = 1
        owner = nil
        count.value = 2
        #expect(seen.values == [1])
    }

    @Test func aLifetimeOwnerObservesWithItselfAsOwner() {
        final class Screen: LifetimeOwner {
            let seen = Recorder<String>()
            init(title: ReadOnlyObservable<String>) {
                observe(title).didChange { screen, new, _ in screen.seen.append(new) }
            }
        }
        let title = Observable("a")
        var screen: Screen? = Screen(title: title.readOnly)
        let seen = screen!.seen
        title.value = "b"
        screen = nil
        title.value = "c"
        #expect(seen.values == ["b"])
    }

    @Test func aDisposeBagEndsItsObservations() {
        let count = Observable(0)
        let seen = Recorder<Int>()
        var bag: DisposeBag? = DisposeBag()
        count.observe().didChange { new, _ in seen.append(new) }.disposed(by: bag!)
        count.value = 1
        bag = nil
        count.value = 2
        #expect(seen.values == [1])
    }

    @Test func anObserverMayDisposeItselfWhileItRuns() {
        let count = Observable(0)
        let seen = Recorder<Int>()
        let observation = Box<AnyDisposable?>(nil)
        observation.set(
            count.observe().didChange { new, _ in
                seen.append(new)
                observation.get()?.dispose()  // never waits for its own call
            })
        count.value = 1
        count.value = 2
        #expect(seen.values == [1])
    }

    @Test func disposeWaitsForTheObserverRunningOnAnotherThread() async {
        let count = Observable(0)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = Box(false)
        let observation = count.observe().didChange { _, _ in
            entered.signal()
            release.wait()
            finished.set(true)
        }
        Thread.detachNewThread { count.value = 1 }
        await waitFor(entered)
        Thread.detachNewThread {
            usleep(20_000)  // let dispose start waiting; a dispose that does not wait returns first
            release.signal()
        }
        await runOnThread { observation.dispose() }
        #expect(finished.get())
    }

    @Test func aQueuedDeliveryIsDroppedOnceDisposed() async {
        let count = Observable(0)
        let queue = DispatchQueue(label: "test.observable.blocked")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        let seen = Recorder<Int>()
        let observation = count.observe().on(queue).didChange { new, _ in seen.append(new) }
        count.value = 1  // queued behind the gate
        observation.dispose()
        gate.signal()
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(seen.values.isEmpty)
    }

    /// An observer of the same observable, running on another thread, waits for something
    /// the disposing thread does only after `dispose()` returns: dispose must not wait for it.
    @Test(arguments: [true, false])
    func disposeDoesNotWaitForOtherObserversOfTheChange(disposedComesFirst: Bool) async {
        let count = Observable(0)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var other: AnyDisposable?
        if disposedComesFirst { other = count.observe().didChange { _, _ in } }
        count.observe().didChange { _, _ in
            entered.signal()
            release.wait()
        }
        if !disposedComesFirst { other = count.observe().didChange { _, _ in } }
        Thread.detachNewThread { count.value = 1 }
        await waitFor(entered)
        let returned = await finishes { [other] in other?.dispose() }
        release.signal()
        #expect(returned)
    }

    @Test func anOwnerWithAnObservationIsDeallocated() {
        final class Screen: LifetimeOwner, @unchecked Sendable {
            var title = ""
            init(title: Observable<String>) {
                observe(title).initial().didChange { screen, new, _ in screen.title = new }
            }
        }
        let title = Observable("a")
        var screen: Screen? = Screen(title: title)
        weak let weakScreen = screen
        title.value = "b"
        #expect(screen?.title == "b")
        screen = nil
        #expect(weakScreen == nil)
    }
}
