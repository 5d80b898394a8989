extension PublishSubject {
    /// Publishes into an operator's relay what one of the operator's upstreams delivered, with backpressure although
    /// it runs inside that upstream's callback.
    ///
    /// A plain publish from inside a callback never waits. An upstream publishing without pause on one thread would
    /// then queue values behind another thread's delivery of the relay without limit, and keep that thread draining
    /// them (`merge` of two busy sources held over 14,000 values a second). When and how long this waits:
    /// ``SubjectEngine/publishBackpressured(_:)``.
    @inlinable
    func feed(_ value: Element) {
        engine.publishBackpressured(value)
    }
}
