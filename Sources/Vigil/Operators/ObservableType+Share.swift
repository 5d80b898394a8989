extension ObservableType {
    /// Shares one subscription to this stream among all subscribers, while there are any.
    ///
    /// The first subscriber subscribes this stream; later ones join that subscription and receive the values
    /// published after they joined. When the last one disposes its subscription, this stream's subscription is
    /// disposed; a subscriber coming after that subscribes it anew. When this stream ends, its subscribers receive
    /// the completion and the sharing ends with it: the next subscriber subscribes anew (RxSwift's
    /// `.whileConnected`; Combine's `share()` would complete a late subscriber at once instead).
    /// RxSwift: `share()`; Combine: `share()`.
    ///
    /// - Returns: The stream, subscribed once for all its subscribers.
    @inlinable
    public func share() -> Observable<Element> {
        SharedSource(source: asObservable(), makeSubject: { PublishSubject<Element>() }).observable
    }

    /// Shares one subscription to this stream among all subscribers, while there are any, and replays its newest
    /// `replay` values to each subscriber that joins.
    ///
    /// Like ``share()``, reference-counted: the first subscriber subscribes this stream and the last one's disposal
    /// disposes it. A joining subscriber receives the newest `replay` values of the current subscription, then every
    /// later value, with no gap and no duplicate even while other threads publish, join and leave (a
    /// ``ReplaySubject`` per subscription of this stream; for `replay: 1`, a subject that keeps the newest value, as
    /// fast as a plain one). A subscriber that comes after everyone left starts a new subscription, with nothing to
    /// replay. RxSwift: `share(replay:scope: .whileConnected)`; Combine has none.
    ///
    /// - Parameter replay: How many of the newest values a joining subscriber receives first; 0 or less is
    ///   ``share()`` with the replay machinery.
    /// - Returns: The stream, subscribed once for all its subscribers.
    @inlinable
    public func share(replay: Int) -> Observable<Element> {
        guard replay == 1 else {
            return SharedSource(source: asObservable(), makeSubject: { ReplaySubject<Element>(bufferSize: replay) })
                .observable
        }
        return SharedSource(source: asObservable(), makeSubject: { LatestValueSubject<Element>() }).observable
    }
}

/// A subject a shared stream feeds its subscribers through.
@usableFromInline
protocol SharingSubject<Element>: ObservableType {
    /// Publishes a value of the upstream from inside its callback, with backpressure.
    func feed(_ value: Element)
    func terminate(with completion: Completion)
}

extension PublishSubject: SharingSubject {}
extension ReplaySubject: SharingSubject {}

/// What `share` is made of: the source, and the connections to it.
///
/// The source is held here, by the observable `share` returned, and by nothing a subscription holds: holding the
/// shared observable keeps a subject behind it alive, as holding any observable does, while its subscriptions keep
/// only the connection. So a released subject finishes the subscribers of a shared stream, and a disposed
/// subscription keeps nothing of the source.
///
/// Inlinable, so the path of every value (the source's callback feeding the subject) is compiled for the element
/// and subject types where `share` is called; unspecialized, each value looked up generic metadata on the way.
@usableFromInline
final class SharedSource<Subject: SharingSubject>: Sendable {
    @usableFromInline typealias Element = Subject.Element

    @usableFromInline let source: Observable<Element>
    @usableFromInline let connections: ShareConnections<Subject>

    @inlinable
    init(source: Observable<Element>, makeSubject: @escaping @Sendable () -> Subject) {
        self.source = source
        connections = ShareConnections(makeSubject: makeSubject)
    }

    @inlinable
    var observable: Observable<Element> {
        Observable.lifting { target in self.join(target) }
    }

    /// Joins the current connection, or opens one; the subscriber is attached to the subject before the source is
    /// subscribed, so it receives what the source delivers during `subscribe`.
    @inlinable
    func join(_ target: DeliveryTarget<Element>) -> [any Disposable] {
        let connections = connections
        let (id, subject, opens) = connections.join()
        let downstream = subject.subscribe(
            on: .immediate, onNext: target.onNext, onCompletion: target.onCompletion)
        let leave = Subscription(onDispose: { connections.leave(id) })
        if opens {
            let upstream = source.subscribe(
                on: .immediate,
                onNext: { subject.feed($0) },
                onCompletion: { completion in
                    subject.terminate(with: completion)
                    connections.end(id)
                }
            )
            connections.keep(upstream, for: id)
        }
        return [downstream, leave]
    }
}

/// The current connection of a shared stream (one subscription of the source feeding one subject) and how many
/// subscribers it has.
@usableFromInline
final class ShareConnections<Subject: SharingSubject>: Sendable {
    private struct Connection {
        let id: Int
        let subject: Subject
        var subscribers = 1
        var upstream: Subscription?
    }

    private struct State {
        var connection: Connection?
        var nextID = 0
    }

    private let makeSubject: @Sendable () -> Subject
    private let state = FutexMutex(State())

    @usableFromInline
    init(makeSubject: @escaping @Sendable () -> Subject) {
        self.makeSubject = makeSubject
    }

    /// Counts one more subscriber of the current connection, or opens one (then `opens` is true).
    @usableFromInline
    func join() -> (id: Int, subject: Subject, opens: Bool) {
        state.withLock { state -> (Int, Subject, Bool) in
            if var connection = state.connection {
                connection.subscribers += 1
                state.connection = connection
                return (connection.id, connection.subject, false)
            }
            let connection = Connection(id: state.nextID, subject: makeSubject())
            state.nextID += 1
            state.connection = connection
            return (connection.id, connection.subject, true)
        }
    }

    /// Keeps the source's subscription for connection `id`; disposes it if that connection already ended.
    @usableFromInline
    func keep(_ upstream: Subscription, for id: Int) {
        let kept = state.withLock { state -> Bool in
            guard state.connection?.id == id else { return false }
            state.connection?.upstream = upstream
            return true
        }
        if !kept { upstream.dispose() }
    }

    /// One subscriber left; the last one's leaving disposes the source's subscription.
    @usableFromInline
    func leave(_ id: Int) {
        let upstream = state.withLock { state -> Subscription? in
            guard var connection = state.connection, connection.id == id else { return nil }
            connection.subscribers -= 1
            guard connection.subscribers == 0 else {
                state.connection = connection
                return nil
            }
            state.connection = nil
            return connection.upstream
        }
        upstream?.dispose()
    }

    /// The source ended: the next subscriber opens a new connection.
    @usableFromInline
    func end(_ id: Int) {
        let upstream = state.withLock { state -> Subscription? in
            guard let connection = state.connection, connection.id == id else { return nil }
            state.connection = nil
            return connection.upstream
        }
        upstream?.dispose()
    }
}
