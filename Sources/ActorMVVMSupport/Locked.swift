#if os(Linux) && !ACTORMVVM_APPLE_BELOW_26
  import ActorMVVMRuntimeShims
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a lock: the lock under every relay, mailbox and
/// channel in ActorMVVM.
///
/// Use it as `Mutex` is used: reach the value only inside ``withLock(_:)``,
/// and let nothing that refers to a non-`Sendable` value escape the closure.
///
/// On Linux the lock is one 32-bit word (`ActorMVVMLock.h`): taken with
/// one compare-and-swap, released with one exchange, compiled into the
/// caller; a contended lock spins briefly, then sleeps on a futex. Elsewhere it is a
/// `pthread_mutex_t`.
///
/// Why not `Synchronization.Mutex`? On Linux its atomics live inside the
/// standard library, which the thread sanitizer does not instrument, so
/// every access through it is reported as a race and `Scripts/stress.sh`
/// could not tell a real race from a false one. This lock's atomics are
/// compiled into ActorMVVM and its clients, where the sanitizer sees them
/// (acquire on taking, release on releasing), so its reports mean
/// something; `LockedStressTests` runs under it.
///
/// The value and the lock share one heap allocation (a `ManagedBuffer`:
/// the value as its header, the lock as its single element), so a lock
/// costs one object, not two.
///
/// `@unchecked Sendable` is safe because the value (the buffer's header) is
/// read or written only inside `withLock`, between taking and releasing the
/// lock stored beside it: no two threads
/// touch it at once, and the mutex orders every access after the previous
/// one. Only `withLock` touches `buffer` (internal rather than private so
/// it can be inlined; no other file names `LockedStorage`, the audit),
/// so nothing reaches the value another way.
/// `LockedStressTests` hammers one lock from 8 tasks, and the stress suite
/// runs under the thread sanitizer (`Scripts/stress.sh`), which fails on any
/// report: the tests that would catch a violation. (`ManagedBuffer` is
/// never `Sendable`, so the promise is made here, on the only way in.)
///
/// `@usableFromInline` and `@inlinable` throughout, like the rest of the hot
/// path: client modules specialise it for their own types instead of going
/// through generic metadata at run time.
public struct Locked<Value>: @unchecked Sendable {
  @usableFromInline let buffer: LockedStorage<Value>

  /// A lock guarding `value`.
  @inlinable
  public init(_ value: Value) {
    buffer = LockedStorage.create(value)
  }

  /// The identity of this lock's storage: unique while the lock lives, and
  /// shared by its copies. Touches nothing inside.
  @inlinable
  public var identity: ObjectIdentifier { ObjectIdentifier(buffer) }

  /// Which lock this build uses: the futex word on Linux, a pthread mutex
  /// elsewhere (and with `ACTORMVVM_APPLE_BELOW_26`, which takes an Apple
  /// build's paths on Linux). For the tests that prove each path is taken.
  public static var implementation: String {
    #if os(Linux) && !ACTORMVVM_APPLE_BELOW_26
      "futex word"
    #else
      "pthread mutex"
    #endif
  }

  /// Runs `body` with exclusive access to the value. `body` must not
  /// suspend (it cannot: it is synchronous) and must not take this lock again.
  @inlinable @inline(__always)
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try buffer.withLock(body)
  }
}

#if os(Linux) && !ACTORMVVM_APPLE_BELOW_26
  /// The storage of a ``Locked``: the value and its lock word in one allocation.
  @usableFromInline
  final class LockedStorage<Value>: ManagedBuffer<Value, UInt32> {
    @inlinable
    static func create(_ value: Value) -> LockedStorage<Value> {
      let buffer = create(minimumCapacity: 1) { _ in value }
      let storage = unsafeDowncast(buffer, to: LockedStorage<Value>.self)
      // Published to other threads only after this returns (by whatever
      // hands them the lock), so a plain store is enough.
      storage.withUnsafeMutablePointerToElements { $0.initialize(to: 0) }
      return storage
    }

    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
      try withUnsafeMutablePointers { value, word in
        actormvvm_lock(word)
        defer { actormvvm_unlock(word) }
        return try body(&value.pointee)
      }
    }
  }
#else
  /// The storage of a ``Locked``: the value and its mutex in one allocation.
  @usableFromInline
  final class LockedStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    @inlinable
    static func create(_ value: Value) -> LockedStorage<Value> {
      let buffer = create(minimumCapacity: 1) { _ in value }
      let storage = unsafeDowncast(buffer, to: LockedStorage<Value>.self)
      storage.withUnsafeMutablePointerToElements { mutex in
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
      }
      return storage
    }

    deinit {
      // The header (the value) is deinitialised by ManagedBuffer; the mutex is ours.
      _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }

    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
      try withUnsafeMutablePointers { value, mutex in
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
      }
    }
  }
#endif
