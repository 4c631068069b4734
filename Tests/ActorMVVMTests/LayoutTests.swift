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
    // The mailbox: buffer, extras, weak owner, then its three flags
    // (`turnRequested`, the drain's, fits the tail: up to 28 bytes the
    // object stays 16 + 28 + 4 = 48).
    #expect(MemoryLayout<Mailbox<Machine>.State>.size == 27)
    // The relay: value and version, counters, the slot table (inline slot
    // last), then `finished` in its tail.
    #expect(MemoryLayout<SubscriberTable<StateRelay<Machine.State>.Policy>>.size == 68)
    #expect(MemoryLayout<SubscriberSlot<UInt64>?>.size == 27)
  }
}
