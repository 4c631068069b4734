@testable import ActorMVVMSupport

#if os(Linux) && !ACTORMVVM_APPLE_BELOW_26
  import ActorMVVMRuntimeShims
  import Foundation
  import Testing

  @testable import ActorMVVM

  @Suite("Locked's lock word")
  struct LockedTests {
    /// The contended path, step by step: a thread that finds the lock held
    /// marks the word contended (2) and sleeps on the futex; the holder's
    /// release sees the mark and wakes it; it then takes the lock and sees
    /// the holder's write. Each thread counts its own slow paths, so other
    /// tests running meanwhile cannot move them. Without the mark the
    /// release would wake nobody and the waiter would sleep forever; without
    /// the sleep the wait count would not move.
    @Test("a waiter marks the word, sleeps, is woken by the release, and sees what the holder wrote")
    func contendedPath() {
      let lock = Locked(0)
      let holding = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      let done = DispatchSemaphore(value: 0)
      let counts = Locked((holderWakes: UInt64(0), waiterWaits: UInt64(0), seen: -1))
      Thread.detachNewThread {
        let wakes = actormvvm_lock_wake_count()
        lock.withLock { value in
          holding.signal()
          release.wait()
          value = 1
        }
        let woke = actormvvm_lock_wake_count() - wakes
        counts.withLock { $0.holderWakes = woke }
        done.signal()
      }
      holding.wait()
      Thread.detachNewThread {
        let waits = actormvvm_lock_wait_count()
        let value = lock.withLock { $0 }
        let waited = actormvvm_lock_wait_count() - waits
        counts.withLock {
          $0.waiterWaits = waited
          $0.seen = value
        }
        done.signal()
      }
      // Only the waiter's slow path writes 2: wait (yielding; no clock)
      // until it has, then release the holder.
      let word = lock.buffer.withUnsafeMutablePointerToElements { $0 }
      while withExtendedLifetime(lock, { actormvvm_lock_word(word) }) != 2 { sched_yield() }
      #expect(counts.withLock { $0.seen } == -1)
      release.signal()
      done.wait()
      done.wait()
      let result = counts.withLock { $0 }
      #expect(result.seen == 1)
      #expect(result.waiterWaits == 1)
      #expect(result.holderWakes == 1)
      #expect(withExtendedLifetime(lock, { actormvvm_lock_word(word) }) == 0)
    }
  }
#endif
