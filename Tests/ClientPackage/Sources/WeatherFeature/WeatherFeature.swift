import ActorMVVM

/// The app's own weather screen's machine, in a module named as the
/// reference app names one of its own.
public struct Weather: StateMachine {
  public struct State: Equatable, Sendable {
    public var city = "Seoul"
    public init() {}
  }
  public enum Input: Sendable { case cityChanged(String) }
  public init() {}
  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .cityChanged(let city): state.city = city
    }
    return .none
  }
}
