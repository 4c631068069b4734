import Testing

@testable import ActorMVVM

/// The sizes an idle feature's memory figure rests on (see the README's
/// memory row). Each storage object is a header (16 bytes), one of these
/// values and a 4-byte lock word, rounded up by malloc to 16 bytes plus 8:
/// a field added here, or flags moved off the tail, costs a whole 16 bytes
/// per feature. These pins make such a change a decision, not an accident.
@Suite("Layout")
struct LayoutTests {
  struct Machine: StateMachine {
    struct State: Equatable, Sendable { var count = 0 }
    enum Input: Sendable { case add }
    typealias Output = Never
    func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> { .none }
  }

  @Test("a mailbox's state, a word-sized state relay's table, a subscriber slot")
  func sizes() {
    // The mailbox: buffer, extras, weak owner, output relay, emitted
    // count, then its three flags in the tail (up to 44 bytes the object is
    // 16 + 44 + 4 = 64). The relay and the count were the feature object's
    // two atomics (`Synchronization` is above the floor): they cost the
    // mailbox 16 bytes and saved the feature object as many.
    #expect(MemoryLayout<Mailbox<Machine>.State>.size == 43)
    // The relay: value and version, counters, the slot table (inline slot
    // last), then `finished` and the parked count in its tail (up to 68
    // bytes the object is 16 + 68 + 4 = 88).
    #expect(MemoryLayout<SubscriberTable<StateRelay<Machine.State>.Policy>>.size == 68)
    #expect(MemoryLayout<SubscriberSlot<UInt64>?>.size == 25)
  }
}
