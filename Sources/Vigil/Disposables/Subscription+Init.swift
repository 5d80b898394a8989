extension Subscription {
    /// Creates a subscription that disposes all of `disposables`, in order, when it is disposed or released.
    public convenience init(disposing disposables: [any Disposable]) {
        self.init(cancel: { for disposable in disposables { disposable.dispose() } })
    }
}
