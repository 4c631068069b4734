// A stand-in for SwiftUI, compiled only by the Apple-SDK profile
// (Scripts/apple-profile.sh): the one declaration ActorMVVM's SwiftUI code
// uses, with the signature Xcode's SDK gives it (iOS 13 / macOS 10.15 and
// later), so that code is compiled somewhere: Linux has no SwiftUI. It
// checks types and concurrency annotations, not SwiftUI's behaviour.

@propertyWrapper
public struct Binding<Value> {
  private let read: @isolated(any) @Sendable () -> Value

  @preconcurrency
  public init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void) {
    read = get
    _ = set
  }

  public var wrappedValue: Value {
    get { fatalError("a compile-time stand-in") }
    nonmutating set { fatalError("a compile-time stand-in") }
  }
}
