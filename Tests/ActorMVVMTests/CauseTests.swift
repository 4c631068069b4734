import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// A loader that reports, from inside each run, the cause current there.
struct CausedLoader: StateMachine {
  let gates: [String: TestGate]
  let seen: Locked<[String: Cause?]>
  struct State: Equatable, Sendable {
    var query = ""
    var result: String?
    var note = ""
  }
  enum Input: Sendable { case queryChanged(String), noteChanged(String), loaded(String) }
  enum Output: Sendable, Equatable { case done(String) }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .queryChanged(let query):
      state.query = query
      let (gate, seen) = (gates[query], seen)
      return .run(id: "load") { send in
        seen.withLock { $0[query] = Cause.current }
        await gate?.wait()
        send(.loaded(query))
      }
    case .noteChanged(let note):
      state.note = note
      return .none
    case .loaded(let result):
      state.result = result
      return .emit(.done(result))
    }
  }
}

@Suite("Causes: an input's cause follows what it leads to")
struct CauseTests {
  func traced(_ gates: [String: TestGate] = [:]) -> (
    Feature<CausedLoader>, Locked<[String]>, Locked<[String: Cause?]>
  ) {
    let lines = Locked<[String]>([])
    let seen = Locked<[String: Cause?]>([:])
    let feature = Feature(
      CausedLoader(gates: gates, seen: seen), initialState: .init(),
      trace: .printing("loader") { line in lines.withLock { $0.append(line) } })
    return (feature, lines, seen)
  }

  @Test("An input sent under a cause: reduced under it, its run runs under it, the run's result is reduced under it")
  func causeFollowsTheRunAndItsResult() async {
    let (feature, lines, seen) = traced()
    Cause.with(Cause(7)) { feature.send(.queryChanged("a")) }
    feature.send(.noteChanged("uncaused"))
    await feature.idle()
    await feature.finish()
    // The run's result and the uncaused input race to the mailbox: their order is not fixed.
    let inputs = lines.withLock { $0 }.filter { $0.hasPrefix("[loader] input") }
    #expect(inputs.count == 3)
    #expect(inputs.first == #"[loader] input queryChanged("a") (caused by #7)"#)
    #expect(inputs.contains(#"[loader] input noteChanged("uncaused")"#))
    #expect(inputs.contains(#"[loader] input loaded("a") (caused by #7)"#))
    #expect(seen.withLock { $0 } == ["a": Cause(7)])
  }

  @Test("A run's start is reported under the cause of the input that started it, not the drain's (issue #48)")
  func startReportedUnderItsInputsCause() async {
    let started = Locked<[Cause?]>([])
    let feature = Feature(
      CausedLoader(gates: [:], seen: Locked([:])), initialState: .init(),
      trace: FeatureTrace { event in
        if case .effect(.started) = event { started.withLock { $0.append(Cause.current) } }
      })
    // The first send schedules the drain, which inherits that sender's cause;
    // the run is the second input's.
    Cause.with(Cause(1)) { feature.send(.noteChanged("first")) }
    Cause.with(Cause(2)) { feature.send(.queryChanged("a")) }
    await feature.idle()
    await feature.finish()
    #expect(started.withLock { $0 } == [Cause(2)])
  }

  @Test("A result that lands after a later, differently caused input keeps its own run's cause")
  func lateResultKeepsItsCause() async {
    let slow = TestGate()
    let (feature, lines, _) = traced(["a": slow])
    Cause.with(Cause(1)) { feature.send(.queryChanged("a")) }
    await feature.flush()
    Cause.with(Cause(2)) { feature.send(.noteChanged("typed meanwhile")) }
    await feature.flush()
    slow.open()
    await feature.idle()
    await feature.finish()
    #expect(lines.withLock { $0 }.contains(#"[loader] input loaded("a") (caused by #1)"#))
    #expect(lines.withLock { $0 }.contains(#"[loader] input noteChanged("typed meanwhile") (caused by #2)"#))
  }

  @Test("A superseding input's run carries its own cause; the superseded run's result is dropped, not credited")
  func supersededRun() async {
    let slow = TestGate()
    let (feature, lines, seen) = traced(["a": slow])
    Cause.with(Cause(1)) { feature.send(.queryChanged("a")) }
    await feature.flush()
    Cause.with(Cause(2)) { feature.send(.queryChanged("b")) }
    await feature.flush()
    slow.open()
    await feature.idle()
    await feature.finish()
    let all = lines.withLock { $0 }
    #expect(all.contains(#"[loader] input loaded("b") (caused by #2)"#))
    #expect(!all.contains { $0.contains(#"input loaded("a")"#) })
    #expect(seen.withLock { $0 } == ["a": Cause(1), "b": Cause(2)])
  }

  @Test("With no cause anywhere, nothing is tagged: Cause.current is nil inside runs and the trace says nothing")
  func uncausedIsUntagged() async {
    let (feature, lines, seen) = traced()
    feature.send(.queryChanged("x"))
    await feature.idle()
    await feature.finish()
    #expect(!lines.withLock { $0 }.contains { $0.contains("caused by") })
    #expect(seen.withLock { $0 } == ["x": Cause?.none])
  }

  @Test("Cause.with(nil) hides an outer cause; the cause ends with its scope")
  func scopes() async {
    #expect(Cause.current == nil)
    await Cause.with(Cause(3)) {
      await Task.yield()
      #expect(Cause.current == Cause(3))
      Cause.with(nil) { #expect(Cause.current == nil) }
      #expect(Cause.current == Cause(3))
    }
    #expect(Cause.current == nil)
  }

  @Test("A transition observer sees every transition's input, origin, state and cause, in order")
  func transitionObserver() async {
    let (feature, _, _) = traced()
    let seen = Locked<[FeatureTransition<CausedLoader>]>([])
    let (id, initial) = await feature.observeTransitions { transition in
      seen.withLock { $0.append(transition) }
    }
    #expect(initial.note == "")
    Cause.with(Cause(4)) { feature.send(.noteChanged("one")) }
    feature.send(.noteChanged("two"))
    await feature.flush()
    await feature.stopObservingTransitions(id)
    feature.send(.noteChanged("three"))
    await feature.finish()
    let log = seen.withLock { $0 }
    #expect(log.map(\.state.note) == ["one", "two"])
    #expect(log.map(\.cause) == [Cause(4), nil])
    #expect(log.map(\.origin) == [.sent, .sent])
  }

  @Test("Outputs with causes carry each output's cause and number; earlier outputs are counted, not delivered")
  func outputCauses() async {
    let (feature, _, _) = traced()
    feature.send(.queryChanged("before"))
    await feature.idle()
    let (emittedBefore, values) = feature.outputsWithCauses()
    #expect(emittedBefore == 1)
    var outputs = values.makeAsyncIterator()
    Cause.with(Cause(9)) { feature.send(.queryChanged("a")) }
    let first = await outputs.next()
    feature.send(.queryChanged("b"))
    let second = await outputs.next()
    #expect(first?.output == .done("a") && first?.cause == Cause(9) && first?.number == 2)
    #expect(second?.output == .done("b") && second?.cause == nil && second?.number == 3)
    await feature.finish()
    #expect(await outputs.next() == nil)
    // Subscribed after the feature finished: the sequence ends at once.
    var late = feature.outputsWithCauses().values.makeAsyncIterator()
    #expect(await late.next() == nil)
  }
}
