import ActorMVVMNetworking

/// The app's own networking module, named as many apps name theirs: it wraps
/// the package's `HTTPClient` and its name clashes with nothing the package
/// offers.
public struct APIClient: Sendable {
  public let http: any HTTPClient
  public init(http: any HTTPClient) { self.http = http }
}
