import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTesting
import Testing

/// A journal: each input appends its name; `load` starts a run that waits
/// on a gate, `note` emits an output.
struct Journal: StateMachine {
  struct State: Equatable, Sendable { var entries: [String] = [] }
  enum Input: Sendable { case write(String), load, loaded, note(String) }
  enum Output: Sendable, Equatable { case noted(String) }

  let gate: TestGate

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .write(let text):
      state.entries.append(text)
      return .none
    case .load:
      state.entries.append("load")
      let gate = self.gate
      return .run(id: "load") { send in
        await gate.wait()
        send(.loaded)
      }
    case .loaded:
      state.entries.append("loaded")
      return .none
    case .note(let text):
      state.entries.append("note")
      return .emit(.noted(text))
    }
  }
}

@Suite("perform: the awaited send")
struct PerformTests {
  @Test("Reduces what is pending first, then its input; returns the state after it")
  func pendingFirst() async {
    let feature = Feature(Journal(gate: TestGate()), initialState: .init())
    feature.send(.write("a"))
    feature.send(.write("b"))
    let state = await feature.perform(.write("c"))
    #expect(state.entries == ["a", "b", "c"])
    await feature.finish()
  }

  @Test("Returns with the runs its transition asks for started and its outputs emitted, not their results")
  func runsStartedOutputsEmitted() async {
    let gate = TestGate()
    let feature = Feature(Journal(gate: gate), initialState: .init())
    var outputs = feature.outputValues.makeAsyncIterator()
    let afterLoad = await feature.perform(.load)
    #expect(afterLoad.entries == ["load"])
    #expect(await feature.runningEffectCount == 1)
    await feature.perform(.note("x"))
    #expect(await outputs.next() == .noted("x"))
    gate.open()
    await feature.idle()
    #expect(await feature.state.entries == ["load", "note", "loaded"])
    await feature.finish()
  }

  @Test("Carries the cause current where it is called, as send does; observers see it as sent")
  func causeAndOrigin() async {
    let feature = Feature(Journal(gate: TestGate()), initialState: .init())
    let seen = Locked<[(String, Cause?)]>([])
    _ = await feature.observeTransitions { transition in
      seen.withLock { $0.append(("\(transition.input) \(transition.origin)", transition.cause)) }
    }
    _ = await Cause.with(Cause(9)) { await feature.perform(.write("a")) }
    await feature.perform(.write("b"))
    #expect(seen.withLock { $0.map(\.0) } == [#"write("a") sent"#, #"write("b") sent"#])
    #expect(seen.withLock { $0.map(\.1) } == [Cause(9), nil])
    await feature.finish()
  }

  @Test("After finish: nothing is reduced, and the input counts as dropped")
  func afterFinish() async {
    let feature = Feature(Journal(gate: TestGate()), initialState: .init())
    await feature.perform(.write("a"))
    await feature.finish()
    let state = await feature.perform(.write("late"))
    #expect(state.entries == ["a"])
    #expect(feature.droppedInputCount == 1)
  }

  @Test("Returns on a machine whose every reduction sends again")
  func selfFeeding() async {
    let feature = Echo.feature(reentrant: true)
    let state = await feature.perform(.tick)
    #expect(state.count >= 1)
    await feature.finish()
  }

  @Test("Many tasks performing and sending at once: every input reduced once, each sender's order kept")
  func concurrentSenders() async {
    let feature = Feature(Journal(gate: TestGate()), initialState: .init())
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<4 {
        group.addTask {
          for index in 0..<50 {
            if (sender + index).isMultiple(of: 2) {
              await feature.perform(.write("\(sender).\(index)"))
            } else {
              feature.send(.write("\(sender).\(index)"))
            }
          }
        }
      }
    }
    let entries = await feature.state.entries
    #expect(entries.count == 200)
    for sender in 0..<4 {
      let mine = entries.filter { $0.hasPrefix("\(sender).") }
      #expect(mine == (0..<50).map { "\(sender).\($0)" })
    }
    await feature.finish()
  }
}
