extension PublishSubject {
    /// Completes or fails as `completion` says.
    @usableFromInline
    func terminate(with completion: Completion) {
        switch completion {
        case .finished: complete()
        case .failed(let error): fail(error)
        }
    }
}
