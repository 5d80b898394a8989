import Glibc

/// Whether this test process runs under AddressSanitizer (its runtime is linked in), whose quarantine and shadow
/// memory make resident-memory figures meaningless.
package var runsUnderAddressSanitizer: Bool { dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil }

/// Whether this test process runs under ThreadSanitizer, whose shadow memory grows with what is touched.
package var runsUnderThreadSanitizer: Bool { dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil }
