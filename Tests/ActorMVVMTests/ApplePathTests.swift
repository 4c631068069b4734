import ActorMVVMSupport
import ActorMVVMTesting
import Foundation
import Testing

@testable import ActorMVVM

/// Which code paths this build takes, proved rather than assumed: the
/// Apple-SDK profile (`Scripts/apple-profile.sh`, `ACTORMVVM_APPLE_BELOW_26`)
/// must run an Apple build's paths below OS 26, and the ordinary Linux build
/// its own. A profile that silently took the Linux paths would pass every
/// other test while checking nothing.
@Suite("Code paths by platform")
struct ApplePathTests {
  #if ACTORMVVM_APPLE_BELOW_26
    static let appleBelow26 = true
  #else
    static let appleBelow26 = false
  #endif

  @Test("Locked: the futex word on Linux, a pthread mutex on the Apple path")
  func lock() {
    #expect(Locked<Int>.implementation == (Self.appleBelow26 ? "pthread mutex" : "futex word"))
  }

  @Test("Effect runs start immediately on Linux, through a start lane on the Apple path below 26")
  func effectStart() {
    #expect(EffectRunner<Int, Never>.startsRunsImmediately == !Self.appleBelow26)
  }

  @Test("Virtual time is the test bubble's on every path: none outside one, the bubble's inside")
  func bubbleOnEveryPath() async {
    #expect(!TestBubble.isActive)
    await withTestBubble { #expect(TestBubble.isActive) }
  }

  @Test("Locked excludes and publishes on either lock: a waiter blocks until the holder releases, then sees its write")
  func lockedExcludes() {
    let lock = Locked(0)
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let seen = Locked(-1)
    Thread.detachNewThread {
      lock.withLock { value in
        holding.signal()
        release.wait()
        value = 1
      }
      done.signal()
    }
    holding.wait()
    Thread.detachNewThread {
      let value = lock.withLock { $0 }
      seen.withLock { $0 = value }
      done.signal()
    }
    release.signal()
    done.wait()
    done.wait()
    // Whichever way the waiter was scheduled, it could only take the lock
    // after the holder's write: it never sees the value from before.
    #expect(seen.withLock { $0 } == 1)
  }
}
