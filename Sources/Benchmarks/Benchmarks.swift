import ActorMVVM
import ActorMVVMOperators
import Foundation

/// One row of the table: a workload's measurement in `unit`, the
/// baseline's (nil when it has none) and the goal it is held to ("" for none).
struct Row {
  let name: String
  let unit: String
  let value: Double
  let baseline: Double?
  let goal: String
}

func format(_ value: Double, _ unit: String) -> String {
  switch unit {
  case "/s": value >= 1e6 ? String(format: "%.2fM/s", value / 1e6) : String(format: "%.0fk/s", value / 1e3)
  case "µs": String(format: "%.1f µs", value)
  case "B": String(format: "%.0f B", value)
  case "MB": String(format: "%.1f MB", value)
  case "s": String(format: "%.3f s", value)
  default: String(format: "%.2f %@", value, unit)
  }
}

/// `swift run -c release Benchmarks [--json] [--quick] [--only TEXT]`: ActorMVVM against a
/// hand-rolled baseline in the same run, median of several repetitions.
/// `--instructions` is `Scripts/instructions.sh`'s mode (see `main.swift`).
enum BenchmarkMain {
  static func run() async throws {
    let arguments = CommandLine.arguments.dropFirst()
    let json = arguments.contains("--json")
    let quick = arguments.contains("--quick")
    let repetitions = quick ? 1 : 5
    if let index = arguments.firstIndex(of: "--profile") {
      // For profilers: one ActorMVVM workload, no baseline, nothing else.
      let workload = arguments[arguments.index(after: index)]
      switch workload {
      case "inputs": print(await Workloads.inputs(senders: 1, perSender: 5_000_000))
      case "fanout": print(await Workloads.eventFanOut(subscribers: 10, events: 500_000, path: .fast))
      case "fanout-stream": print(await Workloads.eventFanOut(subscribers: 10, events: 300_000, path: .stream))
      case "state-fanout": print(await Workloads.stateFanOut(subscribers: 10, updates: 1_000_000, path: .fast))
      case "combine": print(await Workloads.combineLatestEvents(events: 1_000_000))
      case "combine-relays": print(await Workloads.combineLatestRelays(events: 1_000_000))
      case "effects": print(await Workloads.supersedingEffects(count: 500_000))
      case "flatmaplatest": print(await Workloads.flatMapLatestOperator(events: 500_000))
      case "memory": print(await Workloads.idleFeatureBytes(count: 10_000).0)
      default:
        print(
          "unknown workload \(workload): inputs, fanout, fanout-stream, state-fanout, combine, combine-relays, effects, flatmaplatest, memory"
        )
      }
      return
    }
    let scale = quick ? 10 : 1
    // `--only TEXT`: run just the workloads whose name contains TEXT (memory always runs first).
    let only = arguments.firstIndex(of: "--only").map { arguments[arguments.index(after: $0)] }
    func wanted(_ name: String) -> Bool { only.map { name.contains($0) } ?? true }

    func median(_ runs: Int, _ body: () async -> Double) async -> Double {
      var values: [Double] = []
      for _ in 0..<runs { values.append(await body()) }
      values.sort()
      return values[values.count / 2]
    }

    var rows: [Row] = []
    func add(
      _ name: String, _ unit: String, _ measure: @autoclosure () async -> Double,
      _ measureBaseline: @autoclosure () async -> Double?, goal: String
    ) async {
      guard wanted(name) else { return }
      let value = await measure()
      let baseline = await measureBaseline()
      rows.append(Row(name: name, unit: unit, value: value, baseline: baseline, goal: goal))
      if !json {
        let ratio = baseline.map { String(format: "%.2fx", value / $0) } ?? "-"
        let base = baseline.map { format($0, unit) } ?? "-"
        print(
          name.padding(toLength: 52, withPad: " ", startingAt: 0)
            + format(value, unit).padding(toLength: 16, withPad: " ", startingAt: 0)
            + base.padding(toLength: 16, withPad: " ", startingAt: 0)
            + ratio.padding(toLength: 9, withPad: " ", startingAt: 0)
            + goal)
      }
    }

    if !json {
      print("ActorMVVM benchmarks — \(ProcessInfo.processInfo.activeProcessorCount) cores, median of \(repetitions)")
      print(
        "workload".padding(toLength: 52, withPad: " ", startingAt: 0)
          + "ActorMVVM".padding(toLength: 16, withPad: " ", startingAt: 0)
          + "baseline".padding(toLength: 16, withPad: " ", startingAt: 0) + "ratio    goal")
    }

    // Memory first, on a fresh heap; each measurement keeps what it allocated alive.
    if wanted("memory") || wanted("live features") {
      let (baselineBytes, baselineAllocations) = await Workloads.idleBaselineBytes(count: 10_000)
      let (featureBytes, featureAllocations) = await Workloads.idleFeatureBytes(count: 10_000)
      let (manyBytes, manyAllocations) = await Workloads.idleFeatureBytes(count: 100_000 / scale)
      await add("memory per idle feature + 1 subscription", "B", featureBytes, baselineBytes, goal: "≤ 512 B")
      await add("100,000 live features", "MB", manyBytes * 100_000 / 1e6, nil, goal: "≤ 60 MB")
      withExtendedLifetime((baselineAllocations, featureAllocations, manyAllocations)) {}
    }
    let inputCount = 2_000_000 / scale
    await add(
      "inputs/s, 1 sender", "/s",
      await median(repetitions) { await Workloads.inputs(senders: 1, perSender: inputCount) },
      await median(repetitions) { await Workloads.inputsBaseline(senders: 1, perSender: inputCount) }, goal: "≥ 5M/s")
    await add(
      "inputs/s, 8 senders", "/s",
      await median(repetitions) { await Workloads.inputs(senders: 8, perSender: inputCount / 8) },
      await median(repetitions) { await Workloads.inputsBaseline(senders: 8, perSender: inputCount / 8) }, goal: "")

    for subscribers in [1, 10, 100] {
      let events = 1_000_000 / subscribers / scale
      let baseline =
        wanted("event fan-out, \(subscribers) sub")
        ? await median(repetitions) {
          await Workloads.eventFanOutBaseline(subscribers: subscribers, events: events)
        } : nil
      await add(
        "event fan-out, \(subscribers) sub, relay .values", "/s",
        await median(repetitions) {
          await Workloads.eventFanOut(subscribers: subscribers, events: events, path: .fast)
        }, baseline,
        goal: subscribers == 10 ? "≥ 10M/s" : "")
      await add(
        "event fan-out, \(subscribers) sub, AsyncStream", "/s",
        await median(repetitions) {
          await Workloads.eventFanOut(subscribers: subscribers, events: events, path: .stream)
        }, baseline,
        goal: subscribers == 10 ? "≥ 3M/s" : "")
    }
    for subscribers in [1, 10, 100] {
      let updates = 1_000_000 / subscribers / scale
      let name = "state fan-out (conflated), \(subscribers) sub"
      let baseline =
        wanted(name)
        ? await median(repetitions) {
          await Workloads.stateFanOutBaseline(subscribers: subscribers, updates: updates)
        } : nil
      await add(
        "\(name), relay .values", "/s",
        await median(repetitions) {
          await Workloads.stateFanOut(subscribers: subscribers, updates: updates, path: .fast)
        }, baseline, goal: subscribers == 10 ? "≥ 10M/s" : "")
      await add(
        "\(name), AsyncStream", "/s",
        await median(repetitions) {
          await Workloads.stateFanOut(subscribers: subscribers, updates: updates, path: .stream)
        }, baseline, goal: subscribers == 10 ? "≥ 3M/s" : "")
    }

    await add(
      "combineLatest events/s, relay upstreams", "/s",
      await median(repetitions) { await Workloads.combineLatestRelays(events: 500_000 / scale) },
      await median(repetitions) { await Workloads.combineLatestRelaysBaseline(events: 500_000 / scale) },
      goal: "≥ 3.5M/s")
    await add(
      "combineLatest events/s, AsyncStream upstreams", "/s",
      await median(repetitions) { await Workloads.combineLatestEvents(events: 500_000 / scale) },
      await median(repetitions) { await Workloads.combineLatestBaseline(events: 500_000 / scale) }, goal: "")
    await add(
      "one pre-filled AsyncStream, iterated", "/s",
      await median(repetitions) { await Workloads.asyncStreamIteration(events: 500_000 / scale) }, nil, goal: "")
    await add(
      "flatMapLatest operator, outer elements/s (relay outer, one-element inners)", "/s",
      await median(repetitions) { await Workloads.flatMapLatestOperator(events: 300_000 / scale) },
      await median(repetitions) { await Workloads.flatMapLatestOperatorBaseline(events: 300_000 / scale) },
      goal: "≥ 0.6M/s")
    await add(
      "flatMapMerge operator, elements/s (relay outer, one-element inners)", "/s",
      await median(repetitions) { await Workloads.flatMapMergeOperator(events: 300_000 / scale) },
      await median(repetitions) { await Workloads.flatMapMergeOperatorBaseline(events: 300_000 / scale) },
      goal: "")
    await add(
      "share(replay: 1) operator, deliveries/s (one pre-filled AsyncStream, 10 subscribers)", "/s",
      await median(repetitions) { await Workloads.shareOperator(subscribers: 10, events: 100_000 / scale) },
      await median(repetitions) { await Workloads.shareOperatorBaseline(subscribers: 10, events: 100_000 / scale) },
      goal: "")
    await add(
      "superseding effects/s (flatMapLatest)", "/s",
      await median(repetitions) { await Workloads.supersedingEffects(count: 200_000 / scale) },
      await median(repetitions) { await Workloads.supersedingBaseline(count: 200_000 / scale) }, goal: "≥ 1M/s")

    if wanted("latency") {
      let latency = await Workloads.latency(samples: 20_000 / scale)
      let latencyBase = await Workloads.latencyBaseline(samples: 20_000 / scale)
      await add(
        "send → state latency p50", "µs", latency[latency.count / 2], latencyBase[latencyBase.count / 2],
        goal: "≤ 20 µs")
      await add(
        "send → state latency p99", "µs", latency[latency.count * 99 / 100],
        latencyBase[latencyBase.count * 99 / 100], goal: "≤ 200 µs")
    }

    if wanted("model") {
      let model = await ModelWorkloads.latency(samples: 20_000 / scale)
      let loop = await ModelWorkloads.latencyStateValues(samples: 20_000 / scale)
      await add(
        "send → state on the main-actor model, p50", "µs", model[model.count / 2], loop[loop.count / 2],
        goal: "≤ 2× stateValues")
      await add(
        "send → state on the main-actor model, p99", "µs", model[model.count * 99 / 100],
        loop[loop.count * 99 / 100], goal: "≤ 2× stateValues")
    }
    await add(
      "states/s applied by the main-actor model", "/s",
      await median(repetitions) { await ModelWorkloads.states(inputs: 1_000_000 / scale) },
      await median(repetitions) { await ModelWorkloads.statesStateValues(inputs: 1_000_000 / scale) },
      goal: "≥ 0.5× stateValues")

    await add(
      "10,000 features × 100 inputs, run + finish", "s",
      await median(min(3, repetitions)) { await Workloads.driveAndFinish(features: 10_000 / scale, inputs: 100) }, nil,
      goal: "≤ 1 s")

    for workload in RxSuite.workloads {
      let count = max(1, workload.count / scale)
      await add(
        "\(workload.name) (\(workload.unit)s/s)", "/s",
        await median(repetitions) { await RxSuite.rate(workload, count: count) },
        workload.baseline == nil
          ? nil : await median(repetitions) { await RxSuite.rate(workload, count: count, baseline: true) },
        goal: "")
    }

    if json {
      for row in rows {
        var object: [String: Any] = ["workload": row.name, "unit": row.unit, "value": row.value, "goal": row.goal]
        if let baseline = row.baseline {
          object["baseline"] = baseline
          object["ratio"] = row.value / baseline
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
      }
    }

  }
}
