import CLinuxSupport

/// The package's lock: a value that only one thread at a time may touch, through ``withLock(_:)``.
///
/// The same API as `Synchronization.Mutex`, on a futex lock of our own (`VigilLock.h`): Swift's `Mutex` on Linux
/// uses priority-inheritance futexes, which route every contended handover through the kernel (it made queue
/// delivery several times slower), and it is invisible to ThreadSanitizer. This lock spins briefly before it
/// sleeps, and ThreadSanitizer sees its atomic operations. The lock word and the value share one heap block, so the
/// value has a stable address. Every target of the package names this type `Mutex` (a typealias of its own shadows
/// `Synchronization.Mutex`).
@usableFromInline
package struct Mutex<Value>: ~Copyable {
    @usableFromInline let block: UnsafeMutableRawPointer

    /// Where the value starts in the block: after the 4-byte lock word, at the value's alignment.
    @inlinable
    static var valueOffset: Int { max(MemoryLayout<UInt32>.stride, MemoryLayout<Value>.alignment) }

    /// Creates a lock guarding `initialValue`.
    @inlinable
    package init(_ initialValue: sending Value) {
        block = .allocate(
            byteCount: Self.valueOffset + MemoryLayout<Value>.stride,
            alignment: max(MemoryLayout<UInt32>.alignment, MemoryLayout<Value>.alignment))
        block.initializeMemory(as: UInt32.self, repeating: 0, count: 1)
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
        let word = block.assumingMemoryBound(to: UInt32.self)
        vigil_lock(word)
        defer { vigil_unlock(word) }
        return try body(&(block + Self.valueOffset).assumingMemoryBound(to: Value.self).pointee)
    }
}

// Safe: the value is reached only through `withLock`, under the lock this struct owns (a C resource: the block).
extension Mutex: @unchecked Sendable {}
