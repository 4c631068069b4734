import ActorMVVM

/// The route finder (seed 003): tap the map for a start and a goal, tap
/// "길찾기" for the route, open the detail list.
///
/// The view model stays "dumb", as the article insists: it never names the
/// network. Directions come from a ``DirectionsService``. `isLoading` is
/// kept by `reduce`, as in every feature of the app: true from the request
/// until its route or error lands, or until moving a marker cancels it (the
/// article's `trackActivity`, where a test can assert it).
///
/// Markers: the first tap sets the start, the second the goal, and every
/// later tap *moves the goal* (the start stays where the user put it; "reset"
/// clears both). Moving a marker clears the drawn route and cancels a
/// request in flight, since its answer would no longer match the markers.
public struct DirectionsMachine: StateMachine {
  public struct State: Equatable, Sendable {
    public var currentLocation: Coordinate?
    public var start: Coordinate?
    public var goal: Coordinate?
    public var path: [Coordinate] = []
    public var summary: RouteSummary?
    public var guide: [GuideStep] = []
    public var isDetailShown = false
    public var isLoading = false
    public var error: DirectionsError?

    public init() {}

    /// The markers on the map, start first.
    public var markers: [Coordinate] { [start, goal].compactMap { $0 } }
  }

  public enum Input: Sendable, Equatable {
    case locationUpdated(Coordinate)
    case mapTapped(Coordinate)
    case resetMarkersTapped
    case drawPathTapped
    case detailTapped
    case detailClosed
    case routeLoaded(DrivingRoute)
    case routeFailed(DirectionsError)
  }

  public typealias Output = Never

  let service: any DirectionsService

  public init(service: any DirectionsService) {
    self.service = service
  }

  enum CancelID: Hashable, Sendable { case route }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .locationUpdated(let coordinate):
      state.currentLocation = coordinate
      return .none
    case .mapTapped(let coordinate):
      if state.start == nil { state.start = coordinate } else { state.goal = coordinate }
      clearRoute(&state)
      return .cancel(id: CancelID.route)
    case .resetMarkersTapped:
      state.start = nil
      state.goal = nil
      clearRoute(&state)
      return .cancel(id: CancelID.route)
    case .drawPathTapped:
      guard let start = state.start, let goal = state.goal else {
        state.error = .needsStartAndGoal
        return .none
      }
      state.error = nil
      state.isLoading = true
      let service = self.service
      let navigation = NavigationData(start: start, goal: goal)
      return .task(id: CancelID.route) { () async throws(DirectionsError) in
        .routeLoaded(try await service.route(navigation))
      } catch: {
        .routeFailed($0)
      }
    case .detailTapped:
      state.isDetailShown = !state.guide.isEmpty
      return .none
    case .detailClosed:
      state.isDetailShown = false
      return .none
    case .routeLoaded(let route):
      state.path = route.path
      state.summary = route.summary
      state.guide = route.guide
      state.isLoading = false
      return .none
    case .routeFailed(let error):
      state.error = error
      state.isLoading = false
      return .none
    }
  }

  private func clearRoute(_ state: inout State) {
    state.path = []
    state.summary = nil
    state.guide = []
    state.isDetailShown = false
    state.error = nil
    state.isLoading = false
  }
}
