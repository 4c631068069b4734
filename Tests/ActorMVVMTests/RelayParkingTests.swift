import ActorMVVMTesting
import Testing

@testable import ActorMVVM

/// A state relay's accept wakes its parked subscribers found by count
/// (`SubscriberTable.parked`), not by visiting every slot: the count
/// follows each way a waiter leaves its slot, an accept still finds one
/// parked behind subscribers that are not, and a saturated count falls
/// back to visiting them all.
@Suite("Relay parking", .testBubble)
struct RelayParkingTests {
  static func parked(_ relay: StateRelay<Int>) -> UInt16 { relay.cell.storage.withLock { $0.parked } }

  /// Reads values until `last`, returning the last one read.
  static func reader(_ relay: StateRelay<Int>, until last: Int = .max) -> Task<Int?, Never> {
    let values = relay.values
    return TestBubble.task {
      var read: Int?
      for await value in values {
        read = value
        if value == last { break }
      }
      return read
    }
  }

  @Test("The count follows parking, an accept, a cancellation and finish")
  func countFollowsWaiters() async {
    let relay = StateRelay(0)
    let readers = (0..<3).map { _ in Self.reader(relay, until: 2) }
    let cancelled = Self.reader(relay)
    await TestClock().settle()
    #expect(Self.parked(relay) == 4)  // each read 0 and waits for the next
    cancelled.cancel()
    #expect(Self.parked(relay) == 3)  // taken out by the cancellation handler
    #expect(await cancelled.value == 0)
    relay.accept(1)
    await TestClock().settle()
    #expect(Self.parked(relay) == 3)  // woken and counted out, read 1, parked again
    relay.accept(2)
    for reader in readers { #expect(await reader.value == 2) }
    let last = Self.reader(relay)
    await TestClock().settle()
    #expect(Self.parked(relay) == 1)
    relay.finish()
    #expect(Self.parked(relay) == 0)
    #expect(await last.value == 2)
  }

  @Test("An accept wakes a subscriber parked behind nine that are not")
  func parkedBehindIdle() async {
    let relay = StateRelay(0)
    let idle = (0..<9).map { _ in relay.values }  // slots 0...8, never iterated
    let reader = Self.reader(relay, until: 7)  // slot 9
    await TestClock().settle()
    #expect(Self.parked(relay) == 1)
    relay.accept(7)
    #expect(await reader.value == 7)
    #expect(relay.subscriberCount == 9)
    withExtendedLifetime(idle) {}
  }

  @Test("A saturated count stays saturated until an accept visits every slot and counts again from zero")
  func saturated() async {
    let relay = StateRelay(0)
    let idle = (0..<9).map { _ in relay.values }
    let reader = Self.reader(relay, until: 7)
    await TestClock().settle()
    relay.cell.storage.withLock { table in
      table.parked = .max - 1
      table.countParked()
      table.countParked()
      table.countUnparked()
    }
    #expect(Self.parked(relay) == .max)
    relay.accept(7)
    #expect(Self.parked(relay) == 0)
    #expect(await reader.value == 7)
    withExtendedLifetime(idle) {}
  }
}
