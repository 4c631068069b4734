import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTesting
import Testing

/// A gate per key, made on first use: a test opens them one at a time.
final class Gates: Sendable {
  private let gates = Locked<[String: TestGate]>([:])
  subscript(key: String) -> TestGate {
    gates.withLock { gates in
      if let gate = gates[key] { return gate }
      let gate = TestGate()
      gates[key] = gate
      return gate
    }
  }
}

/// A row: toggling saves (a run with no id), renaming asks a server (a run
/// with an id, superseding the row's previous rename; it waits on the gate
/// of its new title). Both wait on gates that ignore cancellation, as a
/// request on the wire would.
struct TodoRow: StateMachine {
  let saveGate: TestGate
  let renameGates: Gates
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var title = ""
    var isDone = false
    var isSaving = false
  }
  enum Input: Equatable, Sendable {
    case toggle
    case saved
    case rename(String)
    case renamed(String)
    case deleteTapped
  }
  enum Output: Equatable, Sendable { case finished }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    let (saveGate, renameGates) = (self.saveGate, self.renameGates)
    switch input {
    case .toggle:
      state.isDone.toggle()
      state.isSaving = true
      return .run { send in
        await saveGate.wait()
        send(.saved)
      }
    case .saved:
      state.isSaving = false
      return state.isDone ? .emit(.finished) : .none
    case .rename(let title):
      return .run(id: "rename") { send in
        await renameGates[title].wait()
        send(.renamed(title))
      }
    case .renamed(let title):
      state.title = title
      return .none
    case .deleteTapped:
      return .none  // the list removes the row
    }
  }
}

struct TodoList: StateMachine {
  struct State: Equatable, Sendable {
    var todos: [TodoRow.State] = []
    var doneCount = 0
  }
  enum Input: Equatable, Sendable {
    case todo(Int, TodoRow.Input)
    case add(Int)
    case remove(Int)
  }
  enum Output: Equatable, Sendable { case todo(Int, TodoRow.Output) }

  let rows: ForEachScope<State, Input, Output, TodoRow>

  init(saveGate: TestGate = TestGate(), renameGates: Gates = Gates()) {
    rows = ForEachScope(
      TodoRow(saveGate: saveGate, renameGates: renameGates), state: \State.todos,
      input: { if case .todo(let id, let input) = $0 { (id, input) } else { nil } },
      embed: Input.todo, output: Output.todo)
  }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    rows.reduce(into: &state, input) { state, input in
      switch input {
      case .add(let id):
        state.todos.append(TodoRow.State(id: id))
      case .remove(let id), .todo(let id, .deleteTapped):
        state.todos.removeAll { $0.id == id }
      case .todo:
        break
      }
      state.doneCount = state.todos.count(where: \.isDone)  // after the row's own change
      return .none
    }
  }
}

/// A screen whose detail is an optional child.
struct DetailHost: StateMachine {
  struct State: Equatable, Sendable { var detail: TodoRow.State? }
  enum Input: Equatable, Sendable {
    case open(Int)
    case close
    case detail(TodoRow.Input)
  }
  enum Output: Equatable, Sendable { case detail(TodoRow.Output) }

  let detail: IfLetScope<State, Input, Output, TodoRow>

  init(saveGate: TestGate) {
    detail = IfLetScope(
      TodoRow(saveGate: saveGate, renameGates: Gates()), state: \State.detail,
      input: { if case .detail(let input) = $0 { input } else { nil } }, embed: Input.detail, output: Output.detail)
  }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    detail.reduce(into: &state, input) { state, input in
      switch input {
      case .open(let id): state.detail = TodoRow.State(id: id)
      case .close: state.detail = nil
      case .detail: break
      }
      return .none
    }
  }
}

/// The list inside another scope: a removed row's runs are found through both namespaces.
struct Workspace: StateMachine {
  struct State: Equatable, Sendable { var list = TodoList.State() }
  enum Input: Equatable, Sendable { case list(TodoList.Input) }
  enum Output: Equatable, Sendable { case list(TodoList.Output) }
  let list: Scope<State, Input, Output, TodoList>

  init(saveGate: TestGate) {
    list = Scope(
      TodoList(saveGate: saveGate), state: \State.list,
      input: { if case .list(let input) = $0 { input } else { nil } }, embed: Input.list, output: Output.list)
  }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    list.reduce(into: &state, input) ?? .none
  }
}

@Suite("Collections and optional children (issue #33)", .testBubble)
struct ChildScopeTests {
  @Test("A row's input reaches that row only; its result comes back to it; its output carries its id")
  func rowsAreIndependent() async {
    let gate = TestGate()
    let tester = FeatureTester(TodoList(saveGate: gate), initialState: .init())
    await tester.send(.add(1)) { $0.todos = [.init(id: 1)] }
    await tester.send(.add(2)) { $0.todos.append(.init(id: 2)) }
    await tester.send(.todo(2, .toggle)) {
      $0.todos[1].isDone = true
      $0.todos[1].isSaving = true
      $0.doneCount = 1  // the parent's rule ran after the row's
    }
    gate.open()
    await tester.receive(.todo(2, .saved)) { $0.todos[1].isSaving = false }
    await tester.expectOutput(.todo(2, .finished))
    await tester.finish()
  }

  @Test("Two rows' runs with the same id do not supersede each other")
  func idsAreScopedByRow() async {
    let renameGates = Gates()
    let tester = FeatureTester(
      TodoList(renameGates: renameGates), initialState: .init(todos: [.init(id: 1), .init(id: 2)]))
    await tester.send(.todo(1, .rename("a")))
    await tester.send(.todo(2, .rename("b")))  // both runs are "rename": neither supersedes the other
    renameGates["b"].open()
    await tester.receive(case: { TodoList.Input.todo(2, .renamed($0)) }) { $0.todos[1].title = "b" }
    renameGates["a"].open()
    await tester.receive(case: { TodoList.Input.todo(1, .renamed($0)) }) { $0.todos[0].title = "a" }
    await tester.finish()
  }

  @Test("Removing a row cancels its runs, with and without ids; other rows' runs go on")
  func removalCancels() async {
    let (saveGate, renameGates) = (TestGate(), Gates())
    let list = TodoList(saveGate: saveGate, renameGates: renameGates)
    let tester = FeatureTester(list, initialState: .init(todos: [.init(id: 1), .init(id: 2)]))
    await tester.send(.todo(1, .toggle)) {
      $0.todos[0].isDone = true
      $0.todos[0].isSaving = true
      $0.doneCount = 1
    }
    await tester.send(.todo(1, .rename("gone")))
    await tester.send(.todo(2, .toggle)) {
      $0.todos[1].isDone = true
      $0.todos[1].isSaving = true
      $0.doneCount = 2
    }
    await tester.send(.remove(1)) {
      $0.todos.removeFirst()
      $0.doneCount = 1
    }
    saveGate.open()
    renameGates["gone"].open()
    // Row 1's save and rename were cancelled: their results are dropped; row 2's lands.
    await tester.receive(.todo(2, .saved)) { $0.todos[0].isSaving = false }
    await tester.expectOutput(.todo(2, .finished))
    await tester.finish()
  }

  @Test("A row the child's own input removes has its runs cancelled in that transition")
  func removedByItsOwnInput() async {
    let gate = TestGate()
    let tester = FeatureTester(TodoList(saveGate: gate), initialState: .init(todos: [.init(id: 1)]))
    await tester.send(.todo(1, .toggle)) {
      $0.todos[0].isDone = true
      $0.todos[0].isSaving = true
      $0.doneCount = 1
    }
    await tester.send(.todo(1, .deleteTapped)) {
      $0.todos = []
      $0.doneCount = 0
    }
    gate.open()
    await tester.finish()
  }

  @Test("An input for a row no longer there is ignored")
  func missingRowIgnored() async {
    let tester = FeatureTester(TodoList(), initialState: .init(todos: [.init(id: 1)]))
    await tester.send(.todo(9, .toggle))
    await tester.finish()
  }

  @Test("A removed row's runs are cancelled through an outer scope too")
  func nestedRemovalCancels() async {
    let gate = TestGate()
    let counters = LifetimeCounters()
    let feature = Feature(
      Workspace(saveGate: gate), initialState: .init(list: .init(todos: [.init(id: 1)])), counters: counters)
    feature.send(.list(.todo(1, .toggle)))
    await feature.flush()
    #expect(await feature.runningEffectCount == 1)
    feature.send(.list(.remove(1)))
    await feature.flush()
    #expect(await feature.runningEffectCount == 0)
    gate.open()
    await feature.idle()
    #expect(await feature.state.list.todos.isEmpty)
    await feature.finish()
  }

  @Test("An optional child: its inputs are ignored while absent; dismissing it cancels its runs")
  func optionalChild() async {
    let gate = TestGate()
    let tester = FeatureTester(DetailHost(saveGate: gate), initialState: .init())
    await tester.send(.detail(.toggle))  // absent: ignored
    await tester.send(.open(7)) { $0.detail = .init(id: 7) }
    await tester.send(.detail(.toggle)) {
      $0.detail?.isDone = true
      $0.detail?.isSaving = true
    }
    await tester.send(.close) { $0.detail = nil }
    gate.open()
    await tester.finish()  // the save was cancelled with the detail: nothing fed back, nothing running
  }

  @Test("A shown optional child's run delivers to it")
  func optionalChildDelivers() async {
    let gate = TestGate()
    let tester = FeatureTester(DetailHost(saveGate: gate), initialState: .init(detail: .init(id: 1)))
    await tester.send(.detail(.toggle)) {
      $0.detail?.isDone = true
      $0.detail?.isSaving = true
    }
    gate.open()
    await tester.receive(.detail(.saved)) { $0.detail?.isSaving = false }
    await tester.expectOutput(.detail(.finished))
    await tester.finish()
  }
}

/// A row whose `ping` is throttled: the first ping in a window starts at
/// once, a second is held for the window's end. Each waits on `gate`, which
/// ignores cancellation, as a request on the wire would.
struct PingRow: StateMachine {
  let gate: TestGate
  let clock: TestClock
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var pongs = 0
  }
  enum Input: Equatable, Sendable {
    case ping
    case pong
    case save
  }
  typealias Output = Never

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    let gate = self.gate
    switch input {
    case .ping:
      return .throttle(id: "ping", for: .seconds(1), clock: clock) { send in
        await gate.wait()
        send(.pong)
      }
    case .save:
      return .run { send in
        await gate.wait()
        send(.pong)
      }
    case .pong:
      state.pongs += 1
      return .none
    }
  }
}

struct PingList: StateMachine {
  struct State: Equatable, Sendable {
    var rows: [PingRow.State] = []
    var detail: PingRow.State?
  }
  enum Input: Equatable, Sendable {
    case row(Int, PingRow.Input)
    case detail(PingRow.Input)
    case remove(Int)
    case close
  }
  typealias Output = Never
  let rows: ForEachScope<State, Input, Never, PingRow>
  let detail: IfLetScope<State, Input, Never, PingRow>

  init(gate: TestGate, clock: TestClock) {
    let row = PingRow(gate: gate, clock: clock)
    rows = ForEachScope(
      row, state: \State.rows, input: { if case .row(let id, let input) = $0 { (id, input) } else { nil } },
      embed: Input.row)
    detail = IfLetScope(
      row, state: \State.detail, input: { if case .detail(let input) = $0 { input } else { nil } },
      embed: Input.detail)
  }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    rows.reduce(into: &state, input) { state, input in
      detail.reduce(into: &state, input) { state, input in
        switch input {
        case .remove(let id): state.rows.removeAll { $0.id == id }
        case .close: state.detail = nil
        case .row, .detail: break
        }
        return .none
      }
    }
  }
}

@Suite("Scoped children's throttled runs (issue #47)", .testBubble)
struct ScopedThrottleTests {
  @Test("Removing a row cancels its throttled runs, admitted and held, with its plain run")
  func removedRowCancelsThrottledRuns() async {
    let (gate, clock) = (TestGate(), TestClock())
    let feature = Feature(
      PingList(gate: gate, clock: clock), initialState: .init(rows: [.init(id: 1), .init(id: 2)]))
    feature.send(.row(1, .ping))  // admitted: starts now
    feature.send(.row(1, .ping))  // held for the window's end
    feature.send(.row(1, .save))
    feature.send(.row(2, .save))
    await feature.flush()
    #expect(await feature.runningEffectCount == 4)
    feature.send(.remove(1))
    await feature.flush()
    #expect(await feature.runningEffectCount == 1)  // row 2's save only
    gate.open()
    await feature.idle()
    #expect(await feature.state.rows == [.init(id: 2, pongs: 1)])
    await feature.finish()
  }

  @Test("Dismissing an optional child cancels its throttled runs, admitted and held")
  func dismissedChildCancelsThrottledRuns() async {
    let (gate, clock) = (TestGate(), TestClock())
    let feature = Feature(PingList(gate: gate, clock: clock), initialState: .init(detail: .init(id: 7)))
    feature.send(.detail(.ping))
    feature.send(.detail(.ping))
    feature.send(.detail(.save))
    await feature.flush()
    #expect(await feature.runningEffectCount == 3)
    feature.send(.close)
    await feature.flush()
    #expect(await feature.runningEffectCount == 0)
    gate.open()
    await feature.idle()
    #expect(await feature.state.detail == nil)
    await feature.finish()
  }

  @Test("A row's held throttled run that has started is cancelled with the row")
  func removedRowCancelsStartedHeldRun() async {
    let (gate, clock) = (TestGate(), TestClock())
    let feature = Feature(PingList(gate: gate, clock: clock), initialState: .init(rows: [.init(id: 1)]))
    feature.send(.row(1, .ping))
    feature.send(.row(1, .ping))
    await feature.flush()
    await clock.advance(by: .seconds(1))  // the held run starts and waits on the gate
    #expect(await feature.runningEffectCount == 2)
    feature.send(.remove(1))
    await feature.flush()
    #expect(await feature.runningEffectCount == 0)
    gate.open()
    await feature.idle()
    await feature.finish()
  }
}
