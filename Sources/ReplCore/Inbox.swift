import ActorMVVM
import ActorMVVMSupport

/// Things any task may append and the session takes, oldest first, when it
/// renders: the REPL's buffer between the app (which reports on its own
/// actors) and the session (which renders on its). `Sendable`; every call
/// is one locked step, so two appends keep the order they were made in.
final class Inbox<Element: Sendable>: Sendable {
  private let elements = Locked<[Element]>([])

  func append(_ element: Element) { elements.withLock { $0.append(element) } }

  /// Everything appended since the last call, oldest first.
  func drain() -> [Element] {
    elements.withLock { elements in
      defer { elements = [] }
      return elements
    }
  }
}
