import ActorMVVM
import InterviewFeature
import LoginFeature

/// Owns navigation: a stack of screens (the root never pops) and at most one
/// modal. Features never navigate; they emit outputs, and the coordinator
/// turns them into navigation, as the article's navigators did.
///
/// - **Isolation:** an actor. Every navigation change is one isolated step,
///   so concurrent callers (deep links, opens, backs, feature outputs) can
///   never leave the stack below its root or stack two modals.
/// - **Lifetime:** pushing or presenting a route builds its feature from the
///   ``AppContainer`` and starts it; popping or dismissing finishes that
///   feature (effects cancelled, streams ended) and stops listening to it.
/// - **Observation:** ``navigation`` (a ``StateRelay``, starting with the
///   current state) and ``events`` (an ``EventRelay`` of each change), both
///   asynchronous; ``observe(_:)`` for a view layer that needs every
///   navigation and output in order, synchronously.
/// - **Lifecycle:** ``Lifecycle``: idle until ``start()``, running, then
///   finished by ``finish()`` for good. After `finish()` begins, every
///   command and every navigation a late output would cause is refused:
///   nothing changes, no screen is built, and observers get
///   ``Change/refused(_:)`` naming what was refused.
/// - **Quiescence:** ``settle()`` (for tests and drivers: wait until every
///   screen is idle and every output handled). Navigation never waits on
///   it. (A driver on virtual time needs no help from the coordinator: the
///   test clock and the REPL's clock know when nothing can run.)
public actor AppCoordinator {
  struct Entry {
    let route: Route
    let screen: Screen
    let listener: Task<Void, Never>
    let progress: Progress
  }

  /// Outputs handled across all screens; part of what `settle` watches.
  private var handledOutputs = 0
  /// Listeners of ended screens, still returning.
  private var retiring: [Task<Void, Never>] = []
  /// Called on this actor for each navigation change and output (see ``observe(_:)``).
  private var observers: [@Sendable (Change) -> Void] = []

  /// One thing that happened, as an observer sees it.
  public enum Change: Sendable {
    /// The stack or the modal changed (or a URL was opened); the state after it.
    case navigation(NavigationEvent, NavigationState)
    /// A screen emitted an output, about to be handled.
    case output(Route, any Sendable)
    /// A command or navigation refused because the coordinator has
    /// finished (`"open(weather)"`): nothing changed.
    case refused(String)
  }

  /// Where the coordinator is in its life: idle → running → finished.
  public enum Lifecycle: Sendable, Equatable {
    /// Made, not started.
    case idle
    /// Started: navigation works.
    case running
    /// ``finish()`` has begun: everything is refused from now on.
    case finished
  }

  /// Where the coordinator is in its life.
  public private(set) var lifecycle = Lifecycle.idle

  /// Whether a step may go ahead; if not, observers hear that `what` was refused.
  private func allowed(_ what: @autoclosure () -> String) -> Bool {
    guard lifecycle == .finished else { return true }
    report(.refused(what()))
    return false
  }

  /// Calls `observer` for every navigation change and every screen output
  /// from now on, as long as the coordinator lives: a view layer's log.
  ///
  /// - **Isolation:** `observer` runs on this actor, synchronously, inside
  ///   the step that made the change, so it sees changes in the order they
  ///   happened and each navigation with the state right after it. It must
  ///   not block; store what it needs and render later.
  /// - **Ordering:** an output is reported before its handler runs, so the
  ///   navigation it causes follows it.
  public func observe(_ observer: @escaping @Sendable (Change) -> Void) {
    observers.append(observer)
  }

  private func report(_ change: Change) {
    for observer in observers { observer(change) }
  }

  public let container: AppContainer
  private var stack: [Entry] = []
  private var modal: Entry?
  /// A route that needed a member, opened once login succeeds.
  private var pendingRoute: Route?
  /// A deep link that arrived before login, delivered once it succeeds.
  private var pendingDeepLink: DeepLink?

  /// The navigation state: current value first, then every change.
  public nonisolated let navigation: StateRelay<NavigationState>
  /// Every navigation change, in order.
  public nonisolated let events: EventRelay<NavigationEvent>

  public init(container: AppContainer) {
    self.container = container
    navigation = StateRelay(NavigationState(), counters: container.configuration.counters)
    events = EventRelay(counters: container.configuration.counters)
  }

  /// The state right now.
  public var state: NavigationState { NavigationState(stack: stack.map(\.route), modal: modal?.route) }

  /// The screen on top (the modal if any).
  public var topScreen: Screen? { (modal ?? stack.last)?.screen }

  /// Screens alive right now, root first, modal last.
  public var screens: [(Route, Screen)] { (stack + (modal.map { [$0] } ?? [])).map { ($0.route, $0.screen) } }

  // MARK: Commands

  /// Starts the app: Intro as the root.
  public func start() async {
    guard allowed("start()") else { return }
    lifecycle = .running
    await setRoot(.intro)
  }

  /// Opens `route` from wherever the user is. Routes that need a member go
  /// through login first when nobody is logged in.
  public func open(_ route: Route) async {
    guard allowed("open(\(route))") else { return }
    if route.needsMember, await container.session.currentUser() == nil {
      pendingRoute = route
      await present(.login)
      return
    }
    switch route.screen.presentation {
    case .root: await setRoot(route)
    case .modal: await present(route)
    case .push:
      await dismissModal()
      await push(route)
    }
  }

  /// Goes back one screen: dismisses the modal, else pops. Returns false at the root.
  @discardableResult
  public func back() async -> Bool {
    guard allowed("back()") else { return false }
    if modal != nil {
      await dismissModal()
      return true
    }
    guard stack.count > 1 else { return false }
    await pop()
    return true
  }

  /// Dismisses the modal and pops to the root.
  public func dismissToMain() async {
    guard allowed("dismissToMain()") else { return }
    await dismissModal()
    while stack.count > 1 { await pop() }
  }

  /// What became of a deep link.
  public enum DeepLinkDisposition: Sendable, Equatable {
    /// The home screen received it and decided where it leads.
    case delivered
    /// No member's home is up (nobody logged in, or the intro still
    /// checking a stored session with the server): it is kept (the latest
    /// one) and delivered to the home screen once login succeeds or the
    /// stored session is renewed, as the article's `BehaviorSubject`
    /// trigger replays its last link to a new subscriber.
    case keptUntilLogin
    /// The coordinator has finished: the link was dropped.
    case refused
  }

  /// Handles an `actormvvm://` link. The home screen decides where it
  /// leads (the article's rules: another member's link dismisses to main,
  /// an unknown one does nothing); before login it is kept for later.
  /// - Throws: ``DeepLinkError`` for a malformed link; nothing navigates.
  @discardableResult
  public func handle(deepLink text: String) async throws(DeepLinkError) -> DeepLinkDisposition {
    let link = try DeepLink(parsing: text)
    guard allowed("deeplink") else { return .refused }
    guard let home = stack.first?.screen.feature(HomeMachine.self) else {
      pendingDeepLink = link
      return .keptUntilLogin
    }
    home.send(.deepLinkReceived(link))
    await home.flush()
    return .delivered
  }

  /// Finishes every screen, top first, and ends the relays.
  public func finish() async {
    guard lifecycle != .finished else { return }
    lifecycle = .finished
    await dismissModal()
    while let entry = stack.popLast() { await end(entry) }
    await awaitRetired()
    publish()
    navigation.finish()
    events.finish()
  }

  /// Returns once every live screen is idle and every output it emitted
  /// has been handled, including the screens that handling opened: the
  /// REPL's step between two commands, which keeps scripts deterministic.
  /// Screens with effects that never end keep it waiting.
  public func settle() async {
    while true {
      let before = (state, handledOutputs)
      for entry in stack + (modal.map { [$0] } ?? []) {
        await entry.screen.idle()
        await entry.progress.wait(until: entry.screen.emittedOutputCount)
      }
      await awaitRetired()
      if before == (state, handledOutputs) { return }
    }
  }

  // MARK: Navigation steps

  func setRoot(_ route: Route) async {
    guard allowed("setRoot(\(route))") else { return }
    await dismissModal()
    while let entry = stack.popLast() { await end(entry) }
    stack = [await begin(route)]
    emit(.setRoot(route))
  }

  private func push(_ route: Route) async {
    guard allowed("push(\(route))") else { return }
    stack.append(await begin(route))
    emit(.push(route))
  }

  private func pop() async {
    guard stack.count > 1, let entry = stack.popLast() else { return }
    await end(entry)
    emit(.pop(entry.route))
  }

  func present(_ route: Route) async {
    guard allowed("present(\(route))") else { return }
    await dismissModal()
    modal = await begin(route)
    emit(.present(route))
  }

  private func dismissModal() async {
    guard let entry = modal else { return }
    modal = nil
    await end(entry)
    emit(.dismiss(entry.route))
  }

  private func emit(_ event: NavigationEvent) {
    publish()
    report(.navigation(event, state))
    events.accept(event)
  }

  private func reportOutput(_ route: Route, _ output: any Sendable) { report(.output(route, output)) }

  private func publish() { navigation.accept(state) }

  /// Builds the route's feature, listens to its outputs, starts it.
  private func begin(_ route: Route, screen: Screen? = nil) async -> Entry {
    let screen = if let screen { screen } else { await container.makeScreen(route) }
    let progress = Progress()
    return Entry(
      route: route, screen: screen, listener: listen(to: screen, route: route, progress: progress), progress: progress)
  }

  /// Finishes the screen. Its listener is not awaited here — this may run
  /// inside that very listener (a login dismissing itself) — but kept in
  /// ``retiring`` for `settle` and `finish` to await.
  private func end(_ entry: Entry) async {
    entry.listener.cancel()
    await entry.screen.finish()
    entry.progress.close()
    retiring.append(entry.listener)
  }

  /// Awaits the listeners of ended screens. Never called from a listener.
  private func awaitRetired() async {
    while let listener = retiring.popLast() { await listener.value }
  }

  private func countHandled() { handledOutputs += 1 }

  // MARK: Outputs → navigation

  /// Listens to the screen's outputs, then sends its first input.
  private func listen(to screen: Screen, route: Route, progress: Progress) -> Task<Void, Never> {
    func start<Kind: AppScreen>(_ screen: Kind) -> Task<Void, Never> {
      let listener = relay(screen.feature.outputValues, progress: progress) { coordinator, output in
        await coordinator.reportOutput(route, output)
        await Kind.handle(output, in: coordinator)
      }
      if let input = screen.firstInput { screen.feature.send(input) }  // after subscribing to its outputs
      return listener
    }
    return start(screen.base)
  }

  /// The child coordinators, as the article's navigators: each turns its
  /// flow's outputs into navigation on this coordinator.
  nonisolated var homeFlow: some HomeNavigating { HomeFlow(app: self) }
  nonisolated var popupFlow: some PopupNavigating { PopupFlow(app: self) }

  /// Runs `handle` for each output until the feature finishes, counting
  /// each one handled.
  private nonisolated func relay<Outputs: AsyncSequence & Sendable>(
    _ outputs: Outputs, progress: Progress,
    _ handle: @escaping @Sendable (AppCoordinator, Outputs.Element) async -> Void
  ) -> Task<Void, Never> where Outputs.Failure == Never {
    Task { [weak self] in
      for await output in outputs {
        guard let self else { return }
        await handle(self, output)
        await self.countHandled()
        progress.handledOne()
      }
    }
  }

  func pushScreen(_ route: Route, _ screen: Screen) async {
    guard allowed("push(\(route))") else { return }
    stack.append(await begin(route, screen: screen))
    emit(.push(route))
  }

  func loggedIn(_ session: LoginSession) async {
    // A login that lands after finish() began must not store a session.
    guard allowed("loggedIn") else { return }
    await container.session.start(session)
    await dismissModal()
    // The same member (back after an expired session) keeps their screens;
    // anyone else starts from a fresh home, none of the last member's screens kept.
    if let home = stack.first?.screen.feature(HomeMachine.self), await home.state.member?.memIdx == session.user.memIdx
    {
      home.send(.appeared)
    } else {
      await setRoot(.home)
    }
    if let route = pendingRoute {
      pendingRoute = nil
      await open(route)
    }
    deliverKeptDeepLink()
  }

  /// The intro restored a member whose session the server renewed: their
  /// home, then the link kept while the intro was checking.
  func restoredHome() async {
    await setRoot(.home)
    deliverKeptDeepLink()
  }

  private func deliverKeptDeepLink() {
    if let link = pendingDeepLink, let home = stack.first?.screen.feature(HomeMachine.self) {
      pendingDeepLink = nil
      home.send(.deepLinkReceived(link))
    }
  }

  func sessionExpired() async {
    guard allowed("sessionExpired") else { return }
    await container.session.logout()
    await present(.login)
  }

  func declareFinished(_ result: DeclareResult) async {
    guard stack.last?.route.opens(DeclareScreen.self) == true else { return }
    await pop()
    stack.last?.screen.feature(MessagesMachine.self)?.send(.declareFinished(result))
  }

  func openURL(_ url: String) {
    guard allowed("openURL") else { return }
    report(.navigation(.openURL(url), state))
    events.accept(.openURL(url))
  }
}
