// RxSwift's and Combine's names for the simple operators, where they differ from Vigil's: typing one gives a
// compile error with a fix-it to Vigil's name. Vigil's names follow the Swift standard library, then Combine.

extension ObservableType {
    /// RxSwift's name for ``prefix(_:)``.
    @available(*, unavailable, renamed: "prefix(_:)")
    public func take(_ count: Int) -> Observable<Element> { fatalError("unavailable") }

    /// RxSwift's name for ``prefix(while:)``.
    @available(*, unavailable, renamed: "prefix(while:)")
    public func take(while predicate: @escaping @Sendable (Element) -> Bool) -> Observable<Element> {
        fatalError("unavailable")
    }

    /// RxSwift's name for `prepend(_:)`.
    @available(*, unavailable, renamed: "prepend(_:)")
    public func startWith(_ values: Element...) -> Observable<Element> { fatalError("unavailable") }

    /// RxSwift's name for ``dropFirst(_:)``.
    @available(*, unavailable, renamed: "dropFirst(_:)")
    public func skip(_ count: Int) -> Observable<Element> { fatalError("unavailable") }

    /// RxSwift's name for ``drop(while:)``.
    @available(*, unavailable, renamed: "drop(while:)")
    public func skip(while predicate: @escaping @Sendable (Element) -> Bool) -> Observable<Element> {
        fatalError("unavailable")
    }

    /// RxSwift's name for ``removeDuplicates(by:)``.
    @available(*, unavailable, renamed: "removeDuplicates(by:)")
    public func distinctUntilChanged(
        _ isDuplicate: @escaping @Sendable (Element, Element) -> Bool
    ) -> Observable<Element> { fatalError("unavailable") }

    /// RxSwift's name for ``ignoreOutput()``.
    @available(*, unavailable, renamed: "ignoreOutput()")
    public func ignoreElements() -> Observable<Element> { fatalError("unavailable") }
}

extension ObservableType where Element: Equatable {
    /// RxSwift's name for ``removeDuplicates()``.
    @available(*, unavailable, renamed: "removeDuplicates()")
    public func distinctUntilChanged() -> Observable<Element> { fatalError("unavailable") }
}
