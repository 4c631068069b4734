import ActorMVVM
import ActorMVVMUI
import Testing

/// A code field that keeps at most four characters (a write it refuses in
/// part), a reading that may be NaN, and an output on demand.
struct CodeEntry: StateMachine {
  struct State: Equatable, Sendable {
    var code = ""
    var reading = 0.0
  }
  enum Input: Sendable { case codeChanged(String), read(Double), ping }
  enum Output: Sendable, Equatable { case pong }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .codeChanged(let code): state.code = String(code.prefix(4))
    case .read(let value): state.reading = value
    case .ping: return .emit(.pong)
    }
    return .none
  }
}

@MainActor
@Suite("FeatureModel keeps its promises", .timeLimit(.minutes(1)))
struct FeatureModelPromiseTests {
  @Test("A model made after the feature emitted an output still settles")
  func modelAfterAnOutput() async throws {
    let feature = Feature(CodeEntry(), initialState: .init())
    feature.send(.ping)
    await feature.idle()
    #expect(feature.emittedOutputCount == 1)
    var delivered: [CodeEntry.Output] = []
    let model = FeatureModel(feature) { delivered.append($0) }
    try await model.settled()
    feature.send(.ping)
    try await model.settled()
    #expect(delivered == [.pong], "only the output after the model was made")
    await feature.finish()
  }

  @Test("A write the machine refuses snaps back to what the feature holds, and settled() returns")
  func refusedWriteSnapsBack() async throws {
    let feature = Feature(CodeEntry(), initialState: .init(code: "1234"))
    let model = FeatureModel(feature)
    let code = model.binding(\.code, send: CodeEntry.Input.codeChanged)
    code.wrappedValue = "12345"
    #expect(model.code == "12345", "the write shows at once")
    try await model.settled()
    #expect(model.code == "1234")
    #expect(await feature.state.code == "1234")
    await feature.finish()
  }

  @Test("A state holding NaN settles (by publication, not ==)")
  func nanSettles() async throws {
    let feature = Feature(CodeEntry(), initialState: .init())
    let model = FeatureModel(feature)
    model.send(.read(.nan))
    try await model.settled()
    #expect(model.reading.isNaN)
    model.send(.read(.nan))
    await model.caughtUp()
    #expect(model.reading.isNaN)
    await feature.finish()
  }

  @Test("A binding used after its model is released does nothing and reads its last value")
  func bindingOutlivesItsModel() async throws {
    let feature = Feature(CodeEntry(), initialState: .init(code: "42"))
    var model: FeatureModel<CodeEntry>? = FeatureModel(feature)
    let code = model!.binding(\.code, send: CodeEntry.Input.codeChanged)
    #expect(code.wrappedValue == "42")
    model = nil
    code.wrappedValue = "99"  // no model: nothing happens
    #expect(code.wrappedValue == "42")
    await feature.flush()
    #expect(await feature.state.code == "42")
    await feature.finish()
  }
}
