// The RxSwift, RxRelay and Combine spellings of publishing and subscribing, so that typing them gives a compile
// error with a fix-it to Vigil's name. None of them can be called. The publishing ones are declared on every
// observable, since Swift cannot restrict a protocol extension to a few classes; they read as a subject's or a
// relay's.

extension ObservableType {
    /// Combine: `send(_:)` on a subject; Vigil: `publish(_:)` on a subject or relay.
    @available(*, unavailable, renamed: "publish(_:)")
    public func send(_ value: Element) { fatalError("unavailable") }

    /// RxSwift: `onNext(_:)` on a subject; Vigil: `publish(_:)` on a subject or relay.
    @available(*, unavailable, renamed: "publish(_:)")
    public func onNext(_ value: Element) { fatalError("unavailable") }

    /// RxSwift: `onCompleted()` on a subject; Vigil: `complete()` on a subject.
    @available(*, unavailable, renamed: "complete()")
    public func onCompleted() { fatalError("unavailable") }

    /// RxSwift: `onError(_:)` on a subject; Vigil: `fail(_:)` on a subject.
    @available(*, unavailable, renamed: "fail(_:)")
    public func onError(_ error: any Error) { fatalError("unavailable") }

    /// RxRelay: `accept(_:)` on a relay; Vigil: `publish(_:)` on a relay or subject.
    @available(*, unavailable, renamed: "publish(_:)")
    public func accept(_ value: Element) { fatalError("unavailable") }

    /// Combine: `sink(receiveValue:)`; Vigil: ``subscribe(onNext:onCompletion:)``.
    @available(*, unavailable, renamed: "subscribe(onNext:)")
    public func sink(receiveValue: @escaping @Sendable (Element) -> Void) -> Subscription { fatalError("unavailable") }
}
