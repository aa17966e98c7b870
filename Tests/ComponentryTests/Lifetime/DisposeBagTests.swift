import Componentry
import Testing

@Suite("DisposeBag and AnyDisposable")
struct DisposeBagTests {
    @Test func disposesEverythingInInsertionOrderOnce() {
        let order = Recorder<Int>()
        let bag = DisposeBag()
        for index in 0..<3 { AnyDisposable { order.append(index) }.disposed(by: bag) }
        bag.dispose()
        bag.dispose()
        #expect(order.values == [0, 1, 2])
    }

    @Test func releasingTheBagDisposes() {
        let runs = Counter()
        var bag: DisposeBag? = DisposeBag()
        AnyDisposable { runs.increment() }.disposed(by: bag!)
        #expect(runs.count == 0)
        bag = nil
        #expect(runs.count == 1)
    }

    @Test func lateInsertionsAreDisposedAtOnce() {
        let runs = Counter()
        let bag = DisposeBag()
        bag.dispose()
        AnyDisposable { runs.increment() }.disposed(by: bag)
        #expect(runs.count == 1)
    }

    @Test func anyDisposableRunsOnce() {
        let runs = Counter()
        let disposable = AnyDisposable { runs.increment() }
        disposable.dispose()
        disposable.dispose()
        #expect(runs.count == 1)
    }
}
