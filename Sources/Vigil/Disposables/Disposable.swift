/// Something that can be cancelled once, from any thread.
public protocol Disposable: AnyObject, Sendable {
    /// Cancels; calling it again does nothing. Safe from any thread and from inside callbacks.
    func dispose()

    /// Whether ``dispose()`` has been called.
    var isDisposed: Bool { get }
}

extension Disposable {
    /// Puts this disposable into `bag`, which disposes it when the bag is disposed or released.
    ///
    /// If the bag is already disposed, this is disposed at once.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
