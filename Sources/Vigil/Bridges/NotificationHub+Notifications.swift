extension NotificationHub {
    /// The notifications of `type` as an asynchronous sequence, optionally only those from `sender`.
    ///
    /// The sequence observes from the moment its iterator is made (a `for await` loop makes it when it starts), so
    /// nothing posted after that is missed, and keeps what `buffer` says while the consuming task falls behind.
    /// Cancelling the task, or dropping the iterator, disposes the observation. It never ends by itself.
    ///
    /// ```swift
    /// for await low in NotificationHub.shared.notifications(BatteryLow.self, buffer: .newest(8)) {
    ///     print(low.percent)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of notification to observe.
    ///   - sender: Only notifications posted with this sender (compared by identity, held weakly, as in
    ///     ``observe(_:from:on:_:)``); nil for all.
    ///   - buffer: What to keep for a slow consumer; see ``BufferPolicy``.
    /// - Returns: A sequence of the notifications, in post order.
    public func notifications<Notification: Sendable>(
        _ type: Notification.Type, from sender: (any AnyObject & Sendable)? = nil, buffer: BufferPolicy = .unbounded
    ) -> Notifications<Notification> {
        Notifications(values: observable(type, from: sender).values(buffer: buffer))
    }

    /// Notifications of one type as an `AsyncSequence`; see ``NotificationHub/notifications(_:from:buffer:)``.
    public struct Notifications<Notification: Sendable>: AsyncSequence, Sendable {
        public typealias Element = Notification
        public typealias Failure = Never

        let values: ObservableValues<Notification>

        /// Starts observing and returns the iterator.
        public func makeAsyncIterator() -> AsyncIterator {
            var iterator = values.makeAsyncIterator()
            iterator.start()
            return AsyncIterator(values: iterator)
        }

        /// Iterates the notifications.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var values: ObservableValues<Notification>.AsyncIterator

            /// The next notification, or nil once the consuming task is cancelled.
            public mutating func next() async -> Notification? {
                // A hub's channel never fails, so the only error there could be is none.
                try? await values.next()
            }
        }
    }
}
