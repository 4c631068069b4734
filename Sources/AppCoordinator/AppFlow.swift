/// An app's navigation rules, beyond what every app shares: which screen it
/// starts on, which routes it reroutes (login first), and what a deep link
/// means. The ``AppCoordinator`` owns the stack, the modal and the screens'
/// lifetimes and names no screen; the flow is where an app's own screens
/// and rules live (``InterviewFlow`` for the five articles' app). A new app
/// is its screen types and one flow; the coordinator needs no edit.
///
/// - **Isolation:** every requirement takes the coordinator as an
///   `isolated` parameter, so it runs on the coordinator's actor: what a
///   flow reads of the coordinator (``AppCoordinator/state``,
///   ``AppCoordinator/screens``) and what it does next happen in one step,
///   with no other navigation in between until the flow itself awaits.
///   A flow that keeps state (a link kept until login) keeps it in a lock
///   it takes only on that actor, so the lock is never contended.
/// - **Lifecycle:** the coordinator calls these only while it is not
///   finished; each navigation step a flow takes is refused once
///   ``AppCoordinator/finish()`` has begun, as any caller's is.
public protocol AppFlow: Sendable {
  /// Shows the first screen: called once, by ``AppCoordinator/start()``.
  func start(in app: isolated AppCoordinator) async

  /// Called by ``AppCoordinator/open(_:)`` before it shows `route`:
  /// ``OpenDecision/show`` lets it, ``OpenDecision/handled`` means the
  /// flow did something else (presented login and kept the route).
  /// The default shows every route.
  func open(_ route: Route, in app: isolated AppCoordinator) async -> OpenDecision

  /// Reads `text` as one of the app's links and acts on it.
  /// - Throws: the app's own error for a link it cannot read (the
  ///   interview app's `DeepLinkError`); then nothing navigates.
  func handle(deepLink text: String, in app: isolated AppCoordinator) async throws
    -> AppCoordinator.DeepLinkDisposition
}

/// What ``AppFlow/open(_:in:)`` decided.
public enum OpenDecision: Sendable, Equatable {
  /// Show the route as its screen type says (root, push or modal).
  case show
  /// The flow took care of it; the coordinator shows nothing.
  case handled
}

extension AppFlow {
  public func open(_ route: Route, in app: isolated AppCoordinator) async -> OpenDecision { .show }
}
