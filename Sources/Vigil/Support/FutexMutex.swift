import CVigilCore
import Glibc

/// The package's lock: a value that only one thread at a time may touch, through ``withLock(_:)``.
///
/// The same API as `Synchronization.Mutex`, on a futex lock of our own (`VigilLock.h`). It stays because
/// `swift run -c release VigilBenchmarks --filter lock` measures it faster where the core needs it (contended
/// handover, producer/consumer batches): Swift's `Mutex` on Linux uses priority-inheritance futexes, which route
/// every contended handover through the kernel, and ThreadSanitizer does not see it, while it sees these atomic
/// operations. The lock spins briefly before it sleeps. The lock word, a debug owner word and the value share one
/// heap block, so the value has a stable address. Locking it again on the thread that holds it traps in debug
/// builds, as the standard one does; in release builds it deadlocks.
@usableFromInline
package struct FutexMutex<Value>: ~Copyable {
    @usableFromInline let block: UnsafeMutableRawPointer

    /// Where the owner word starts: after the lock word (its state and its waiter count), at pointer alignment.
    @inlinable
    static var ownerOffset: Int { MemoryLayout<UInt>.stride }

    /// Where the value starts: after the owner word, at the value's alignment.
    @inlinable
    static var valueOffset: Int { max(2 * MemoryLayout<UInt>.stride, MemoryLayout<Value>.alignment) }

    /// Creates a lock guarding `initialValue`.
    @inlinable
    package init(_ initialValue: sending Value) {
        vigil_lock_prepare()
        block = .allocate(
            byteCount: Self.valueOffset + MemoryLayout<Value>.stride,
            alignment: max(MemoryLayout<UInt>.alignment, MemoryLayout<Value>.alignment))
        block.initializeMemory(as: UInt.self, repeating: 0, count: 2)
        (block + Self.valueOffset).initializeMemory(as: Value.self, to: initialValue)
    }

    @inlinable
    deinit {
        (block + Self.valueOffset).assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        block.deallocate()
    }

    /// Runs `body` with exclusive access to the value; `body` must not call back into code that takes this lock.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let word = block.assumingMemoryBound(to: vigil_lock_word.self)
        #if DEBUG
            let owner = (block + Self.ownerOffset).assumingMemoryBound(to: UInt.self)
            let thread = UInt(pthread_self())
            precondition(vigil_lock_owner(owner) != thread, "FutexMutex locked again by the thread that holds it")
            vigil_lock(word)
            vigil_lock_set_owner(owner, thread)
            defer {
                vigil_lock_set_owner(owner, 0)
                vigil_unlock(word)
            }
        #else
            vigil_lock(word)
            defer { vigil_unlock(word) }
        #endif
        return try body(&(block + Self.valueOffset).assumingMemoryBound(to: Value.self).pointee)
    }
}

/// How every ``FutexMutex`` releases: relying on its waiters' `membarrier(2)`, or with a full fence.
package enum FutexLockRelease {
    /// Makes every lock's release use a full fence (true), or rely on the waiters' `membarrier(2)` again where it
    /// works (false), so tests can check both paths on a kernel that has `membarrier(2)`.
    package static func forceFallback(_ fallback: Bool) {
        vigil_lock_force_fallback(fallback ? 1 : 0)
    }
}

// Safe: the value is reached only through `withLock`, under the lock this struct owns (a C resource: the block).
extension FutexMutex: @unchecked Sendable {}
