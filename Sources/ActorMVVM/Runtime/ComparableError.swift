/// An untyped error made `Equatable`, so an `Input` that carries one stays
/// `Equatable` (which `FeatureTester.receive(_:)` and `expectOutput(_:)`
/// need): the answer for a use case that throws `any Error`.
///
/// ```swift
/// enum Input: Equatable, Sendable {
///   case postsLoaded([Post])
///   case failed(ComparableError)
/// }
/// // in reduce:
/// return .run { send in send(.postsLoaded(try await useCase.posts())) } catch: { .failed(ComparableError($0)) }
/// // in a test:
/// await tester.receive(.failed(ComparableError(StubError.offline))) { $0.isLoading = false }
/// ```
///
/// Two are equal when the errors have the same type and — if that type is
/// `Equatable` — are equal as values; an error type that is not
/// `Equatable` compares by its description (`String(reflecting:)`), so
/// `NSError`s and enum cases with payloads compare by what they show. The
/// wrapped error is ``base``: a reducer switches on it with `as?`.
/// Prefer a typed failure (`Effect.run { … } catch:` receives the
/// operation's own error type) where you own the use case; this is for the
/// ones that throw `any Error`.
public struct ComparableError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The error as thrown.
  public let base: any Error
  private let isEqual: @Sendable (any Error) -> Bool

  /// Wraps `error`; wrapping a ``ComparableError`` again returns it unchanged.
  public init(_ error: any Error) {
    if let already = error as? ComparableError {
      self = already
      return
    }
    base = error
    isEqual = Self.comparator(for: error)
  }

  private static func comparator<E: Error>(for error: E) -> @Sendable (any Error) -> Bool {
    if let equatable = error as? any (Error & Equatable) { return equatableComparator(equatable) }
    let shown = String(reflecting: error)
    return { other in type(of: other) == E.self && String(reflecting: other) == shown }
  }

  private static func equatableComparator<E: Error & Equatable>(_ error: E) -> @Sendable (any Error) -> Bool {
    { other in (other as? E).map { $0 == error } ?? false }
  }

  public static func == (lhs: ComparableError, rhs: ComparableError) -> Bool {
    lhs.isEqual(rhs.base) && rhs.isEqual(lhs.base)
  }

  public var description: String { String(describing: base) }
}
