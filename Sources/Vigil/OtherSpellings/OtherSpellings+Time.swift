import Dispatch

// RxSwift's and Combine's spellings of the time operators, each pointing at Vigil's: typing one gives a compile
// error with a fix-it (or a message) naming the operator to use. Vigil times on a `Clock`; the `DispatchQueue`
// forms exist for `debounce` and `throttle` only.

extension ObservableType {
    /// Combine's spelling of ``debounce(_:on:)``, which differs from Combine's when the upstream finishes with a
    /// value waiting (Vigil delivers it first, Combine drops it).
    @available(*, unavailable, renamed: "debounce(_:on:)")
    public func debounce(for interval: Duration, scheduler: DispatchQueue) -> Observable<Element> {
        fatalError("unavailable")
    }

    /// RxSwift's spelling of ``debounce(_:on:)``.
    @available(*, unavailable, renamed: "debounce(_:on:)")
    public func debounce(_ interval: Duration, scheduler: DispatchQueue) -> Observable<Element> {
        fatalError("unavailable")
    }

    /// Combine's spelling of ``throttle(_:on:latest:)``, which differs from Combine's only on a failure with a value
    /// held (Vigil fails at once and drops it).
    @available(*, unavailable, renamed: "throttle(_:on:latest:)")
    public func throttle(for interval: Duration, scheduler: DispatchQueue, latest: Bool) -> Observable<Element> {
        fatalError("unavailable")
    }

    /// RxSwift's spelling of ``throttle(_:on:latest:)``, which differs from RxSwift's with `latest: false`: it
    /// delivers each window's first held value when the window closes, where RxSwift drops it.
    @available(
        *, unavailable,
        message: """
            use throttle(_:on:latest:), or throttle(for:clock:latest:) with a Clock; with latest: false, Vigil \
            delivers a window's first held value when the window closes, where RxSwift drops it
            """
    )
    public func throttle(_ interval: Duration, latest: Bool, scheduler: DispatchQueue) -> Observable<Element> {
        fatalError("unavailable")
    }

    /// Combine's spelling of ``delay(for:tolerance:clock:)``, which takes a `Clock` instead of a scheduler.
    @available(*, unavailable, renamed: "delay(for:clock:)", message: "pass a Clock, e.g. ContinuousClock()")
    public func delay(for interval: Duration, scheduler: DispatchQueue) -> Observable<Element> {
        fatalError("unavailable")
    }

    /// RxSwift's spelling of ``delay(for:tolerance:clock:)``, which takes a `Clock` instead of a scheduler.
    @available(*, unavailable, renamed: "delay(for:clock:)", message: "pass a Clock, e.g. ContinuousClock()")
    public func delay(_ interval: Duration, scheduler: DispatchQueue) -> Observable<Element> {
        fatalError("unavailable")
    }

    /// Combine's and RxSwift's spelling of ``timeout(_:tolerance:clock:)``, which takes a `Clock` instead.
    @available(*, unavailable, renamed: "timeout(_:clock:)", message: "pass a Clock, e.g. ContinuousClock()")
    public func timeout(_ interval: Duration, scheduler: DispatchQueue) -> Observable<Element> {
        fatalError("unavailable")
    }

    /// RxSwift's spelling of ``timeout(_:tolerance:clock:other:)``, which takes a `Clock` instead.
    @available(*, unavailable, message: "use timeout(_:clock:other:) with a Clock, e.g. ContinuousClock()")
    public func timeout(
        _ interval: Duration, other: some ObservableType<Element>, scheduler: DispatchQueue
    ) -> Observable<Element> {
        fatalError("unavailable")
    }
}

extension Observable where Element == Int {
    /// RxSwift's spelling of ``interval(_:tolerance:clock:)``, which takes a `Clock` instead of a scheduler.
    @available(*, unavailable, renamed: "interval(_:clock:)", message: "pass a Clock, e.g. ContinuousClock()")
    public static func interval(_ period: Duration, scheduler: DispatchQueue) -> Observable<Int> {
        fatalError("unavailable")
    }

    /// RxSwift's spelling of ``timer(_:period:tolerance:clock:)``, which takes a `Clock` instead of a scheduler.
    @available(*, unavailable, renamed: "timer(_:period:clock:)", message: "pass a Clock, e.g. ContinuousClock()")
    public static func timer(
        _ dueTime: Duration, period: Duration? = nil, scheduler: DispatchQueue
    ) -> Observable<Int> {
        fatalError("unavailable")
    }
}
