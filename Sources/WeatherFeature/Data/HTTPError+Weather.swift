import ActorMVVMNetworking

extension WeatherError {
  /// The article's mapping: transport failures are failed requests, a
  /// non-200 status keeps its code, an empty body is "no data", a body that
  /// does not decode is invalid data.
  init(_ error: HTTPError) {
    switch error {
    case .transport(let reason): self = .failedRequest(reason)
    case .timedOut, .cancelled, .invalidURL, .invalidBody: self = .failedRequest(error.description)
    case .invalidResponse: self = .invalidResponse
    case .status(let code, _, _): self = .status(code)
    case .emptyBody: self = .noData
    case .undecodable: self = .invalidData(error.description)
    }
  }
}
