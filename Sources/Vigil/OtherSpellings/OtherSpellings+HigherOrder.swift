// RxSwift's and Combine's names for the factories, higher-order operators, sharing and error recovery, where they
// differ from Vigil's: each gives a compile error with a fix-it to Vigil's name (see each operator's documentation).

extension Observable {
    /// RxSwift's name for ``from(_:)``.
    @available(*, unavailable, renamed: "from(_:)")
    public static func of(_ elements: Element...) -> Observable<Element> { fatalError("unavailable") }

    /// RxSwift's name for ``fail(_:)``.
    @available(*, unavailable, renamed: "fail(_:)")
    public static func error(_ error: any Error) -> Observable<Element> { fatalError("unavailable") }
}

extension Observer {
    /// RxSwift's name for ``publish(_:)``.
    @available(*, unavailable, renamed: "publish(_:)")
    public func onNext(_ value: Element) { fatalError("unavailable") }

    /// RxSwift's name for ``complete()``.
    @available(*, unavailable, renamed: "complete()")
    public func onCompleted() { fatalError("unavailable") }

    /// RxSwift's name for ``fail(_:)``.
    @available(*, unavailable, renamed: "fail(_:)")
    public func onError(_ error: any Error) { fatalError("unavailable") }
}

extension ReplaySubject {
    /// RxSwift's way to make one: ``init(bufferSize:)``.
    @available(*, unavailable, renamed: "init(bufferSize:)")
    public static func create(bufferSize: Int) -> ReplaySubject<Element> { fatalError("unavailable") }
}

extension ObservableType {
    /// Combine's spelling of ``flatMap(maxConcurrent:waiting:_:)``'s limit.
    @available(*, unavailable, renamed: "flatMap(maxConcurrent:_:)")
    public func flatMap<Inner: ObservableType>(
        maxPublishers: Int, _ transform: @escaping @Sendable (Element) -> Inner
    ) -> Observable<Inner.Element> { fatalError("unavailable") }

    /// RxSwift's name for ``catch(_:)`` before RxSwift 6.
    @available(*, unavailable, renamed: "catch(_:)")
    public func catchError<Fallback: ObservableType>(
        _ handler: @escaping @Sendable (any Error) throws -> Fallback
    ) -> Observable<Element> where Fallback.Element == Element { fatalError("unavailable") }

    /// Combine's name for a ``catch(_:)`` whose handler throws: Vigil's handler may throw.
    @available(*, unavailable, renamed: "catch(_:)")
    public func tryCatch<Fallback: ObservableType>(
        _ handler: @escaping @Sendable (any Error) throws -> Fallback
    ) -> Observable<Element> where Fallback.Element == Element { fatalError("unavailable") }

    /// RxSwift's name for ``replaceError(with:)``.
    @available(*, unavailable, renamed: "replaceError(with:)")
    public func catchAndReturn(_ value: Element) -> Observable<Element> { fatalError("unavailable") }

    /// RxSwift's name for ``replaceError(with:)`` before RxSwift 6.
    @available(*, unavailable, renamed: "replaceError(with:)")
    public func catchErrorJustReturn(_ value: Element) -> Observable<Element> { fatalError("unavailable") }
}

extension ObservableType where Element: ObservableType {
    /// Combine's `switchToLatest()`: Vigil spells `map { … }.switchToLatest()` as ``flatMapLatest(_:)``.
    @available(
        *, unavailable, message: "use flatMapLatest { $0 }, or flatMapLatest(transform) in place of map(transform)"
    )
    public func switchToLatest() -> Observable<Element.Element> { fatalError("unavailable") }

    /// RxSwift's `merge()` of a stream of streams: ``flatMap(maxConcurrent:waiting:_:)`` with `{ $0 }`.
    @available(*, unavailable, message: "use flatMap { $0 }")
    public func merge() -> Observable<Element.Element> { fatalError("unavailable") }

    /// RxSwift's `concat()` of a stream of streams: ``concatMap(waiting:_:)`` with `{ $0 }`.
    @available(*, unavailable, message: "use concatMap { $0 }")
    public func concat() -> Observable<Element.Element> { fatalError("unavailable") }
}
