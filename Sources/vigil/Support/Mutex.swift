import Vigil

/// The package's lock (see `Vigil.FutexMutex`: ThreadSanitizer-visible in debug builds, where
/// `Synchronization.Mutex` is not on Linux); shadows `Synchronization.Mutex`.
typealias Mutex<Value> = Vigil.FutexMutex<Value>
