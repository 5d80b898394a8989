import Vigil

/// The package's lock (see `Vigil.Mutex`: ThreadSanitizer-visible in debug builds); shadows `Synchronization.Mutex`.
typealias Mutex<Value> = Vigil.Mutex<Value>
