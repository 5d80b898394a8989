import Testing
import Vigil

@Suite(.timeLimit(.minutes(10))) struct DisposeBagTests {
    @Test func disposeDisposesEverything() {
        let subject = PublishSubject<Int>()
        let bag = DisposeBag()
        let recorders = (0..<3).map { _ in Recorder<Int>() }
        for recorder in recorders { recorder.subscribe(to: subject).disposed(by: bag) }
        subject.publish(1)
        bag.dispose()
        subject.publish(2)
        for recorder in recorders { #expect(recorder.values == [1]) }
        #expect(bag.isDisposed)
    }

    @Test func releasingTheBagDisposesEverything() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        do {
            let bag = DisposeBag()
            recorder.subscribe(to: subject).disposed(by: bag)
            subject.publish(1)
        }
        subject.publish(2)
        #expect(recorder.values == [1])
    }

    @Test func insertingIntoADisposedBagDisposesTheNewcomerAtOnce() {
        let subject = PublishSubject<Int>()
        let bag = DisposeBag()
        bag.dispose()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject)
        subscription.disposed(by: bag)
        #expect(subscription.isDisposed)
        subject.publish(1)
        #expect(recorder.values.isEmpty)
    }

    @Test func customDisposablesRunOnce() {
        let bag = DisposeBag()
        let runs = Recorder<Int>()
        Subscription(onDispose: { runs.record(1) }).disposed(by: bag)
        bag.dispose()
        bag.dispose()
        #expect(runs.values == [1])
    }
}
