#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`: the lock under every relay,
/// mailbox and channel in ActorMVVM.
///
/// Why not `Synchronization.Mutex`? On Linux it is built on futexes inside
/// the standard library, which the thread sanitizer does not see, so every
/// access through it is reported as a race and `Scripts/stress.sh` could not
/// tell a real race from a false one. The sanitizer intercepts pthread
/// mutexes, so with this lock its reports mean something.
///
/// `@unchecked Sendable` is safe because `value` is private and read or
/// written only inside `withLock`, between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` on the same mutex: no two threads touch it at
/// once, and the mutex orders every access after the previous one. The
/// stress suite runs under the thread sanitizer (`Scripts/stress.sh`) and
/// fails on a report, which is the test that would catch a violation.
package final class Locked<Value>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  package init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let status = pthread_mutex_init(mutex, nil)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value. `body` must not
  /// suspend (it cannot: it is synchronous) and must not take this lock again.
  @inline(__always)
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
