import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMSupport
import ActorMVVMTesting
import Testing

/// The coordinator driven as an app drives it — start, open, back, finish,
/// each an effect calling the actor, so steps race as the user's taps and
/// the screens' outputs do — over the shelf app, whose every screen build
/// waits for the explorer: the orders in which builds finish are explored
/// with the orders of the calls.
struct CoordinatorHarness: StateMachine {
  struct State: Equatable, Sendable {}
  enum Input: Sendable { case start, open(Route), back, finish }
  typealias Output = Never

  let coordinator: AppCoordinator<ShelfApp>
  let watch: CoordinatorWatch

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    let (coordinator, watch) = (self.coordinator, self.watch)
    return .run { _ in
      await watch.attach(to: coordinator)
      switch input {
      case .start: await coordinator.start()
      case .open(let route): await coordinator.open(route)
      case .back: await coordinator.back()
      case .finish:
        watch.finishBegan()
        await coordinator.finish()
      }
    }
  }
}

/// What the coordinator did, as its observer saw it, kept in the world for the invariants.
final class CoordinatorWatch: Sendable {
  private struct State {
    var attached = false
    var finishing = false
    var hadRoot = false
  }
  private let state = Locked(State())
  let world: ExplorationWorld
  let counters: LifetimeCounters

  init(world: ExplorationWorld, counters: LifetimeCounters) {
    self.world = world
    self.counters = counters
    world.remember(0, as: "screens")
  }

  /// Features alive: every screen built and not yet finished and freed.
  var features: Int { counters.features }

  func attach(to coordinator: AppCoordinator<ShelfApp>) async {
    guard
      state.withLock({ state in
        defer { state.attached = true }; return !state.attached
      })
    else { return }
    await coordinator.observe { [self] change in self.seen(change) }
  }

  func finishBegan() {
    state.withLock { $0.finishing = true }
    world.remember(true, as: "finishing")
  }

  private func seen(_ change: NavigationChange) {
    guard case .navigation(_, let navigation) = change else { return }
    let (finishing, hadRoot) = state.withLock { state in
      defer { state.hadRoot = state.hadRoot || !navigation.stack.isEmpty }
      return (state.finishing, state.hadRoot)
    }
    if finishing { world.remember("\(change)", as: "after finish") }
    if hadRoot, navigation.stack.isEmpty { world.remember("\(change)", as: "root lost") }
    world.remember(navigation.stack.count + (navigation.modal == nil ? 0 : 1), as: "screens")
  }
}

@Suite("Exploring every order: the coordinator", .testBubble)
struct CoordinatorExplorationTests {
  static func exploration() -> Exploration<CoordinatorHarness> {
    Exploration<CoordinatorHarness>(
      inputs: .alphabet([.start, .open(.tally(1)), .open(.note(1)), .back, .finish], count: 4)
    ) { world in
      let counters = LifetimeCounters()
      let builds = world.call(
        "build", answers: { (_: String) -> [Result<Bool, CancellationError>] in [.success(true)] },
        whenCancelled: CancellationError())
      let coordinator = AppCoordinator(ShelfApp(counters: counters, builds: builds))
      world.atEnd { await coordinator.finish() }  // an execution that never sent finish leaves none running
      let watch = CoordinatorWatch(world: world, counters: counters)
      world.remember(watch, as: "watch")
      return (CoordinatorHarness(coordinator: coordinator, watch: watch), .init())
    }
    .invariant("the stack never loses its root") { $0.world.remembered("root lost", as: String.self) == nil }
    .invariant("nothing navigates once finish() has begun") {
      $0.world.remembered("after finish", as: String.self) == nil
    }
    .whenSettled("every screen built is shown, or finished and freed") { observation in
      guard let watch = observation.world.remembered("watch", as: CoordinatorWatch.self) else { return false }
      let finished = observation.world.remembered("finishing", as: Bool.self) == true
      let shown = observation.world.remembered("screens", as: Int.self) ?? 0
      return watch.features == (finished ? 0 : shown)
    }
    .reading(.inputs)
  }

  @Test(
    "Any 4 of start, a push, a present, back and finish, with every screen build finishing in any order: the root stays, nothing navigates after finish, every screen built is shown or finished"
  )
  func navigationRulesHoldInEveryOrder() async {
    let report = await Self.exploration().explore()
    print("coordinator, any 4 of 5 calls, builds in any order: \(report)")
    #expect(report.failure == nil, "\(report)")
    #expect(report.exhaustive)
  }
}
