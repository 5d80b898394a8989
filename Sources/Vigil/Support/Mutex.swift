import Synchronization

#if DEBUG
    import Glibc

    /// The package's lock: `Synchronization.Mutex` in release builds; in debug builds, a `pthread_mutex_t` with the
    /// same API.
    ///
    /// Swift's `Mutex` on Linux locks with a futex inside the uninstrumented standard library, so ThreadSanitizer
    /// (which runs on debug builds) cannot see it and reports every guarded access as a race. A pthread mutex is
    /// intercepted by ThreadSanitizer, so debug builds check the real locking discipline; release builds keep the
    /// inline, allocation-free `Mutex`. Every target of the package names this type `Mutex` (a typealias of its own
    /// shadows `Synchronization.Mutex`).
    package struct Mutex<Value>: ~Copyable {
        private let lock: UnsafeMutablePointer<pthread_mutex_t>
        private let value: UnsafeMutablePointer<Value>

        /// Creates a lock guarding `initialValue`.
        package init(_ initialValue: sending Value) {
            lock = .allocate(capacity: 1)
            pthread_mutex_init(lock, nil)
            value = .allocate(capacity: 1)
            value.initialize(to: initialValue)
        }

        deinit {
            value.deinitialize(count: 1)
            value.deallocate()
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }

        /// Runs `body` with exclusive access to the value.
        package borrowing func withLock<Result: ~Copyable, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return try body(&value.pointee)
        }
    }

    // Safe: the value is reached only through `withLock`, under the pthread mutex this struct owns.
    extension Mutex: @unchecked Sendable {}
#else
    /// The package's lock: `Synchronization.Mutex` (see the debug variant for why debug builds differ).
    package typealias Mutex<Value> = Synchronization.Mutex<Value>
#endif
