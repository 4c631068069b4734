import ActorMVVM

/// The app's own login screen's machine, in a module named as the reference
/// app names one of its own: the package's graph must not hold a second
/// `LoginFeature` for an app that adds it.
public struct Login: StateMachine {
  public struct State: Equatable, Sendable {
    public var id = ""
    public var isValid: Bool { id.count >= 3 }
    public init() {}
  }
  public enum Input: Sendable { case idChanged(String) }
  public init() {}
  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .idChanged(let id): state.id = id
    }
    return .none
  }
}
