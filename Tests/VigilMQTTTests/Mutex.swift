import Vigil

/// The package's lock (see `Vigil.FutexMutex`), which ThreadSanitizer sees; shadows `Synchronization.Mutex`, whose
/// contended handover on Linux (a priority-inheritance futex in the kernel) it does not, and reported as races.
typealias Mutex<Value> = Vigil.FutexMutex<Value>
