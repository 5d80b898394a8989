import Synchronization

#if DEBUG
    import Glibc
#endif

/// The package's lock: `Synchronization.Mutex` in release builds; in debug builds, a `pthread_mutex_t` with the
/// same API.
///
/// Swift's `Mutex` on Linux locks with a futex inside the uninstrumented standard library, so ThreadSanitizer
/// (which runs on debug builds) cannot see it and reports every guarded access as a race. A pthread mutex is
/// intercepted by ThreadSanitizer, so debug builds check the real locking discipline; release builds keep the
/// inline, allocation-free `Mutex`. Every target of the package names this type `Mutex` (a typealias of its own
/// shadows `Synchronization.Mutex`).
@usableFromInline
package struct Mutex<Value>: ~Copyable {
    #if DEBUG
        @usableFromInline let lock: UnsafeMutablePointer<pthread_mutex_t>
        @usableFromInline let value: UnsafeMutablePointer<Value>
    #else
        @usableFromInline let base: Synchronization.Mutex<Value>
    #endif

    /// Creates a lock guarding `initialValue`.
    @inlinable
    package init(_ initialValue: sending Value) {
        #if DEBUG
            lock = .allocate(capacity: 1)
            pthread_mutex_init(lock, nil)
            value = .allocate(capacity: 1)
            value.initialize(to: initialValue)
        #else
            base = Synchronization.Mutex(initialValue)
        #endif
    }

    #if DEBUG
        @inlinable
        deinit {
            value.deinitialize(count: 1)
            value.deallocate()
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }
    #endif

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if DEBUG
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return try body(&value.pointee)
        #else
            return try base.withLock(body)
        #endif
    }
}

#if DEBUG
    // Safe: the value is reached only through `withLock`, under the pthread mutex this struct owns.
    extension Mutex: @unchecked Sendable {}
#else
    extension Mutex: Sendable {}
#endif
