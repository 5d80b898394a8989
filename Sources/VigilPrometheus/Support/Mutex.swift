import Vigil

/// The package's lock (see `Vigil.FutexMutex`: ThreadSanitizer-visible in debug builds); shadows `Synchronization.Mutex`.
typealias Mutex<Value> = Vigil.FutexMutex<Value>
