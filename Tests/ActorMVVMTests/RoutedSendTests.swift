import ActorMVVM
import Dispatch
import Testing

/// A text field whose every change is an output.
private struct Field: StateMachine {
  struct State: Equatable, Sendable { var text = "" }
  enum Input: Equatable, Sendable { case typed(String) }
  enum Output: Equatable, Sendable { case changed(String) }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .typed(let text):
      state.text = text
      return .emit(.changed(text))
    }
  }
}

/// A parent that hears the field's changes as an input of its own and
/// notes, for each, the field's state it sees then.
private struct Form: StateMachine {
  struct State: Equatable, Sendable {
    var field = Field.State()
    /// Each heard change with the field's text at the time it was reduced.
    var heard: [String] = []
  }
  enum Input: Equatable, Sendable {
    case field(Field.Input)
    case heard(String)
    /// Holds the feature's actor until `release` is signalled (so the next
    /// inputs arrive as one batch).
    case hold
  }
  typealias Output = Never

  let entered: DispatchSemaphore
  let release: DispatchSemaphore

  var field: Scope<State, Input, Never, Field> {
    Scope(
      Field(), state: \State.field,
      input: { if case .field(let input) = $0 { input } else { nil } }, embed: Input.field,
      routeOutput: { output in
        switch output {
        case .changed(let text): .send(.heard(text))
        }
      })
  }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    if let effect = field.reduce(into: &state, input) { return effect }
    switch input {
    case .heard(let text):
      state.heard.append("\(text) while the field says \(state.field.text)")
    case .hold:
      entered.signal()
      release.wait()
    case .field:
      break
    }
    return .none
  }
}

/// `Scope(…, routeOutput:)` with `.send`: the parent reduces the sent input
/// against the child's state that produced it (issue #61, item 2).
@Suite("A routed child output is reduced against the child state that produced it")
struct RoutedSendTests {
  @Test("Two changes in one batch: the parent hears each with the field's text it came from")
  func twoChangesInOneBatch() async {
    let (entered, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let feature = Feature(Form(entered: entered, release: release), initialState: .init())
    feature.send(.hold)
    // The drain is inside `.hold`: both changes wait in the mailbox, and the
    // next batch takes them together.
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        entered.wait()
        continuation.resume()
      }
    }
    feature.send(.field(.typed("cat")))
    feature.send(.field(.typed("cats")))
    release.signal()
    await feature.idle()
    #expect(
      await feature.state.heard == ["cat while the field says cat", "cats while the field says cats"])
    await feature.finish()
  }
}
