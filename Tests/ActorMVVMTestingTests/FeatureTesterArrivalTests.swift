import ActorMVVM
import ActorMVVMTesting
import Testing

/// A live feed an input from another effect stops, a save that flips a
/// flag within one instant, and a child whose failure carries an error
/// that is not `Equatable`.
struct Editor: StateMachine {
  let clock: TestClock
  let gate: TestGate
  struct State: Equatable, Sendable {
    var ticks = 0
    var saveEnabled = true
    var error: String?
  }
  enum Row: Sendable {
    case failed(any Error)
    case renamed(String)
  }
  enum Input: Sendable {
    case watch
    case tick
    case stopWatching
    case saveTapped
    case saved
    case row(Row)
    case loadRow
  }
  typealias Output = Never
  struct RowError: Error { let reason: String }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    let (clock, gate) = (self.clock, self.gate)
    switch input {
    case .watch:
      // A live query that ticks forever, and a timer that stops it once its gate opens.
      return .merge(
        .run(id: "feed") { send in
          while (try? await clock.sleep(for: .seconds(1))) != nil { send(.tick) }
        },
        .run { send in
          await gate.wait()
          send(.stopWatching)
        })
    case .tick:
      state.ticks += 1
      return .none
    case .stopWatching:
      return .cancel(id: "feed")
    case .saveTapped:
      state.saveEnabled = false
      return .run { send in send(.saved) }
    case .saved:
      state.saveEnabled = true
      return .none
    case .loadRow:
      return .run { send in send(.row(.failed(RowError(reason: "offline")))) }
    case .row(.failed(let error)):
      state.error = "\(error)"
      return .none
    case .row(.renamed):
      return .none
    }
  }
}

@Suite("FeatureTester reduces on arrival, records transitions, matches nested cases (issue #33)", .testBubble)
struct FeatureTesterArrivalTests {
  @Test("An effect's input is reduced when it arrives: the feed it cancels stops before the test receives it")
  func reducedOnArrival() async {
    let (clock, gate) = (TestClock(), TestGate())
    let tester = FeatureTester(Editor(clock: clock, gate: gate), initialState: .init(), clock: clock)
    await tester.send(.watch)
    await clock.waitForSleepers(1)
    gate.open()
    // The feed never ends on its own; only `.stopWatching`, reduced as it
    // arrives, cancels it. (Reduced at `receive`, this settle would fail.)
    await tester.settle(timeout: .seconds(60))
    await tester.receive(where: { if case .stopWatching = $0 { true } else { false } })
    await tester.finish()
  }

  @Test("record(_:) keeps every value a field took: true → false → true within one instant")
  func recordsTransitions() async {
    let tester = FeatureTester(Editor(clock: TestClock(), gate: TestGate()), initialState: .init())
    let saveEnabled = await tester.record(\.saveEnabled)
    let ticks = await tester.record(\.ticks)
    await tester.send(.saveTapped) { $0.saveEnabled = false }
    await tester.receive(where: { if case .saved = $0 { true } else { false } }) { $0.saveEnabled = true }
    await tester.finish()
    #expect(saveEnabled.values == [true, false, true])
    #expect(ticks.values == [0], "a field no reduce changed records its first value only")
  }

  @Test("A recorder read right after the receive that matched a fed-back input has its value: 100 tries")
  func recorderCurrentAtReceive() async {
    // The docs' pattern, read before finish: the transition is recorded
    // before the tester is woken. A slow field (1 ms to read) widens any
    // window between the two.
    var wrong = 0
    for _ in 0..<100 {
      let tester = FeatureTester(Editor(clock: TestClock(), gate: TestGate()), initialState: .init())
      let saveEnabled = await tester.record { (state: Editor.State) -> Bool in
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .milliseconds(1) {}
        return state.saveEnabled
      }
      await tester.send(.saveTapped) { $0.saveEnabled = false }
      await tester.receive(where: { if case .saved = $0 { true } else { false } }) { $0.saveEnabled = true }
      if saveEnabled.values != [true, false, true] { wrong += 1 }
      await tester.finish()
    }
    #expect(wrong == 0, "\(wrong) of 100 reads missed the received transition")
  }

  @Test("record(_:) keeps each value's time on the tester's clock, as RxTest's TestableObserver")
  func recordsTimes() async {
    let clock = TestClock()
    let gate = TestGate()
    let tester = FeatureTester(Editor(clock: clock, gate: gate), initialState: .init(), clock: clock)
    let ticks = await tester.record(\.ticks, .everyTransition)
    await tester.send(.watch)
    for tick in 1...2 {
      await clock.advance(by: .seconds(1))
      await tester.receive(where: { if case .tick = $0 { true } else { false } }) { $0.ticks = tick }
    }
    gate.open()
    await tester.receive(where: { if case .stopWatching = $0 { true } else { false } })
    await tester.finish()
    #expect(
      ticks.events == [
        Recorded(.zero, 0), Recorded(.zero, 0), Recorded(.seconds(1), 1), Recorded(.seconds(2), 2),
        Recorded(.seconds(2), 2),
      ])
    #expect(ticks.values == ticks.events.map(\.value))
  }

  @Test("receive(case:) matches a nested case, so an error payload need not be Equatable")
  func nestedCase() async {
    let tester = FeatureTester(Editor(clock: TestClock(), gate: TestGate()), initialState: .init())
    await tester.send(.loadRow)
    await tester.receive(case: { Editor.Input.row(.failed($0)) }) { $0.error = "RowError(reason: \"offline\")" }
    await tester.finish()
  }

  @Test("A nested case pattern fails on another case at any level")
  func nestedCaseMismatch() {
    typealias Tester = FeatureTester<Editor>
    let failed = Editor.Input.row(.failed(Editor.RowError(reason: "x")))
    #expect(Tester.input(failed, isCase: { Editor.Input.row(.failed($0)) }))
    #expect(Tester.input(failed, isCase: Editor.Input.row))  // one level, as before
    #expect(!Tester.input(failed, isCase: { Editor.Input.row(.renamed($0)) }))
    #expect(!Tester.input(.row(.renamed("a")), isCase: { Editor.Input.row(.failed($0)) }))
    #expect(!Tester.input(.tick, isCase: { Editor.Input.row(.failed($0)) }))
  }

  @Test("A nested case inside a tuple payload: the other values must match too")
  func nestedCaseInTuple() {
    enum Inner: Sendable { case renamed(String), saved }
    enum Outer: Sendable { case row(Int, Inner) }
    struct Machine: StateMachine {
      typealias State = Int
      func reduce(into state: inout Int, _ input: Outer) -> Effect<Outer, Never> { .none }
    }
    typealias Tester = FeatureTester<Machine>
    #expect(Tester.input(.row(1, .renamed("a")), isCase: { Outer.row(1, .renamed($0)) }))
    #expect(!Tester.input(.row(2, .renamed("a")), isCase: { Outer.row(1, .renamed($0)) }))
    #expect(!Tester.input(.row(1, .saved), isCase: { Outer.row(1, .renamed($0)) }))
  }
}
