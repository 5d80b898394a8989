import Dispatch
import Vigil
import VigilTestSupport
import VigilTesting

/// Every operator and factory of the core, each applied to one `PublishSubject<Int>` (all of an operator's inputs
/// come from it, so releasing it ends them all), for the teardown contract: the barrier, what a subscription keeps,
/// and the finish of a released subject.
struct OperatorCase: Sendable, CustomStringConvertible {
    /// How a value reaches the subscriber's callback once the operator is subscribed.
    enum Trigger: Sendable {
        /// A value published into the subject.
        case publish
        /// The subject failing (for `catch`, whose fallback then delivers).
        case fail
        /// Nothing: the operator delivers by itself (a timer, a producer thread).
        case itself
    }

    let name: String
    let trigger: Trigger
    /// Whether the stream ends with `.finished` once the subject is released.
    let finishesWhenTheSubjectGoes: Bool
    /// Whether firing calls the subscriber back without a manual clock being advanced.
    let callsBackWhenFired: Bool
    let make: @Sendable (PublishSubject<Int>) -> Observable<Int>

    init(
        _ name: String,
        trigger: Trigger = .publish,
        finishesWhenTheSubjectGoes: Bool = true,
        callsBackWhenFired: Bool = true,
        _ make: @escaping @Sendable (PublishSubject<Int>) -> Observable<Int>
    ) {
        self.name = name
        self.trigger = trigger
        self.finishesWhenTheSubjectGoes = finishesWhenTheSubjectGoes
        self.callsBackWhenFired = callsBackWhenFired
        self.make = make
    }

    var description: String { name }

    /// Makes the subscriber's callback run once, from a thread of its own.
    func fire(_ subject: PublishSubject<Int>) {
        switch trigger {
        case .publish: TestThread.detach { subject.publish(1) }
        case .fail: TestThread.detach { subject.fail(TestError(code: 1)) }
        case .itself: break
        }
    }

    static let queue = DispatchQueue(label: "operator catalog")

    static let all: [OperatorCase] = [
        OperatorCase("asObservable") { $0.asObservable() },
        OperatorCase("map") { $0.map { $0 + 1 } },
        OperatorCase("compactMap") { $0.compactMap { $0 } },
        OperatorCase("filter") { $0.filter { _ in true } },
        OperatorCase("scan") { $0.scan(0, +) },
        OperatorCase("removeDuplicates") { $0.removeDuplicates() },
        OperatorCase("prefix") { $0.prefix(5) },
        OperatorCase("prefix(while:)") { $0.prefix { _ in true } },
        OperatorCase("dropFirst") { $0.dropFirst(0) },
        OperatorCase("drop(while:)") { $0.drop { _ in false } },
        OperatorCase("prepend") { $0.prepend([Int]()) },
        OperatorCase("tryMap") { $0.tryMap { $0 } },
        OperatorCase("tryFilter") { $0.tryFilter { _ in true } },
        OperatorCase("tryScan") { $0.tryScan(0) { $0 + $1 } },
        OperatorCase("replaceError") { $0.replaceError(with: 0) },
        OperatorCase("merge") { Observable.merge($0.asObservable(), $0.map { $0 }) },
        OperatorCase("zip") { Observable.zip($0, $0.map { $0 }).map { $0 + $1 } },
        OperatorCase("zip array") { Observable.zip([$0.asObservable(), $0.map { $0 }]).map { $0.reduce(0, +) } },
        OperatorCase("combineLatest") { Observable.combineLatest($0, $0.map { $0 }).map { $0 + $1 } },
        OperatorCase("combineLatest array") {
            Observable.combineLatest([$0.asObservable(), $0.map { $0 }]).map { $0.reduce(0, +) }
        },
        OperatorCase("withLatestFrom") { $0.withLatestFrom($0.prepend(0)) },
        OperatorCase("flatMap") { $0.flatMap { Observable.just($0) } },
        OperatorCase("concatMap") { $0.concatMap { Observable.just($0) } },
        OperatorCase("flatMapLatest") { $0.flatMapLatest { Observable.just($0) } },
        OperatorCase("catch") { $0.catch { _ in Observable<Int>.empty } },
        OperatorCase("catch fallback", trigger: .fail) { $0.catch { _ in Observable.just(7) } },
        OperatorCase("retry") { $0.retry(2) },
        OperatorCase("share") { $0.share() },
        OperatorCase("share(replay:)") { $0.share(replay: 1) },
        OperatorCase("deferred") { subject in Observable.deferred { subject } },
        OperatorCase("timeout") { $0.timeout(.seconds(3600), clock: ManualClock()) },
        OperatorCase("timeout other") { $0.timeout(.seconds(3600), clock: ManualClock(), other: Observable.never) },
        OperatorCase("throttle, manual clock") { $0.throttle(for: .seconds(1), clock: ManualClock()) },
        OperatorCase("debounce, manual clock", callsBackWhenFired: false) {
            $0.debounce(for: .seconds(1), clock: ManualClock())
        },
        // Its end comes a second after the subject's, on a clock nobody advances.
        OperatorCase("delay, manual clock", finishesWhenTheSubjectGoes: false, callsBackWhenFired: false) {
            $0.delay(for: .seconds(1), clock: ManualClock())
        },
        OperatorCase("throttle on a queue") { $0.throttle(.milliseconds(1), on: queue, latest: true) },
        OperatorCase("debounce on a queue") { $0.debounce(.milliseconds(1), on: queue) },
        // Its end waits for a task on Swift's pool, which other tests' blocking waits may hold for seconds; the
        // manual-clock form covers the same runner.
        OperatorCase("delay", finishesWhenTheSubjectGoes: false) { $0.delay(for: .milliseconds(1)) },
        OperatorCase("throttle") { $0.throttle(for: .milliseconds(1)) },
        OperatorCase("debounce") { $0.debounce(for: .milliseconds(1)) },
        OperatorCase("timer", trigger: .itself, finishesWhenTheSubjectGoes: false) { _ in
            Observable.timer(.milliseconds(1))
        },
        OperatorCase("interval", trigger: .itself, finishesWhenTheSubjectGoes: false) { _ in
            Observable.interval(.milliseconds(1)).prefix(1)
        },
        OperatorCase("create", trigger: .itself, finishesWhenTheSubjectGoes: false) { _ in
            Observable.create { observer in
                TestThread.detach { observer.publish(1) }
                return Subscription(onDispose: {})
            }
        },
        OperatorCase("notifications", trigger: .itself, finishesWhenTheSubjectGoes: false) { _ in
            Observable { delivery, onNext, _ in
                let hub = NotificationHub()
                let subscription = hub.observe(Int.self, on: delivery, onNext)
                TestThread.detach { hub.post(1) }
                return subscription
            }
        },
    ]

    static let names = all.map(\.name)
    static let callingBackNames = all.filter(\.callsBackWhenFired).map(\.name)
    static let subjectFedNames = all.filter(\.finishesWhenTheSubjectGoes).map(\.name)

    static func named(_ name: String) -> OperatorCase {
        all.first { $0.name == name }!
    }
}
