/// The REPL's command line.
public struct ReplOptions: Equatable, Sendable {
  public var json = false
  public var trace = false
  public var live = false
  public var seed: UInt64 = 0
  public var latencyMilliseconds = 300
  public var dataDirectory: String?
  public var recordPath: String?
  public var replayPath: String?

  public init() {}

  public static let usage = """
    usage: repl [--json] [--trace] [--live] [--seed N] [--latency MS] [--data-dir DIR] [--record FILE | --replay FILE]
      --json          one JSON object per line
      --trace         also print each feature's trace: inputs, state changes, effects, stale results
      --live          real network (WEATHERBIT_API_KEY, NAVER_CLIENT_ID, NAVER_CLIENT_SECRET)
      --seed N        the embedded backend's seed (default 0)
      --latency MS    simulated latency per request, embedded backend (default 300)
      --data-dir DIR  keep records and the session in DIR/store.json, the embedded
                      server's tokens in DIR/server.json (default: in memory)
      --record FILE   write the commands typed, with their timing, to FILE
      --replay FILE   run the commands recorded in FILE
    """

  /// Parses arguments (without the program name).
  public init(arguments: [String]) throws(OptionsError) {
    var iterator = arguments.makeIterator()
    func value(_ flag: String) throws(OptionsError) -> String {
      guard let value = iterator.next() else { throw .missingValue(flag) }
      return value
    }
    while let argument = iterator.next() {
      switch argument {
      case "--json": json = true
      case "--trace": trace = true
      case "--live": live = true
      case "--seed":
        let text = try value(argument)
        guard let seed = UInt64(text) else { throw .badValue(argument, text) }
        self.seed = seed
      case "--latency":
        let text = try value(argument)
        guard let latency = Int(text), latency >= 0 else { throw .badValue(argument, text) }
        latencyMilliseconds = latency
      case "--data-dir": dataDirectory = try value(argument)
      case "--record": recordPath = try value(argument)
      case "--replay": replayPath = try value(argument)
      case "--help", "-h": throw .helpRequested
      default: throw .unknown(argument)
      }
    }
    if recordPath != nil, replayPath != nil { throw .conflict("--record", "--replay") }
  }
}

public enum OptionsError: Error, Equatable, CustomStringConvertible {
  case unknown(String)
  case missingValue(String)
  case badValue(String, String)
  case conflict(String, String)
  case helpRequested

  public var description: String {
    switch self {
    case .unknown(let flag): "unknown option \(flag)"
    case .missingValue(let flag): "\(flag) needs a value"
    case .badValue(let flag, let value): "\(flag): \"\(value)\" is not a valid value"
    case .conflict(let a, let b): "\(a) and \(b) cannot be used together"
    case .helpRequested: "help"
    }
  }
}
