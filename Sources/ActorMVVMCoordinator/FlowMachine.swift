import ActorMVVM

/// An app's flow run as a `StateMachine` over a model of the navigation
/// state: the navigation rules alone, without screens, for tests that
/// drive flow events in many orders (`Exploration`, a `FeatureTester`).
///
/// Each input is one flow event, reduced by the flow at the navigation
/// state the steps before it left; its commands are applied to that state
/// as the coordinator commits them (``NavigationState/applying(_:)``: a
/// `.show` shows at once, since no screen is built) and emitted, as one
/// output, when there are any. Chores and `.send`s are not performed:
/// they are in the output, for invariants to read.
public struct FlowMachine<Flow: AppFlow>: StateMachine where Flow.State: Equatable {
  /// The flow's own state and the navigation state, after each event.
  public struct State: Equatable, Sendable {
    /// What the flow keeps.
    public var flow: Flow.State
    /// The stack and the modal.
    public var navigation: NavigationState

    /// The state `flow` starts from, after its ``FlowEvent/start`` step
    /// when `started` (the app as ``AppCoordinator/start()`` leaves it).
    public init(_ flow: Flow, started: Bool = true) {
      var state = flow.initialState
      navigation = NavigationState()
      if started { navigation = navigation.applying(flow.reduce(into: &state, .start, navigation: navigation)) }
      self.flow = state
    }
  }

  public typealias Input = Flow.Event
  /// One step's commands, in order.
  public typealias Output = [NavigationCommand<Flow.Chore>]

  /// The flow whose rules are run.
  public let flow: Flow

  /// Runs `flow`'s rules.
  public init(_ flow: Flow) { self.flow = flow }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    let commands = flow.reduce(into: &state.flow, input, navigation: state.navigation)
    guard !commands.isEmpty else { return .none }
    state.navigation = state.navigation.applying(commands)
    return .emit(commands)
  }
}
