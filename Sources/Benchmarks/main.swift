import Dispatch
import Foundation

// `Benchmarks --instructions NAME COUNT [--baseline]` runs one workload of
// `RxSuite` over COUNT units and prints its sum (`--list` names them), for `Scripts/instructions.sh`,
// which counts its instructions under valgrind. Valgrind 3.19 cannot follow
// `dispatch_main`, which an `async` main ends in, so this mode blocks the main
// thread on a semaphore instead; the table needs the main queue (the
// main-actor model's rows) and runs under `dispatchMain()`.
let arguments = CommandLine.arguments
if arguments.contains("--list") {
  for workload in RxSuite.workloads { print(workload.name) }
} else if let index = arguments.firstIndex(of: "--instructions") {
  guard arguments.count > index + 2, let count = Int(arguments[index + 2]),
    let workload = RxSuite.workloads.first(where: { $0.name == arguments[index + 1] })
  else {
    print("usage: Benchmarks --instructions NAME COUNT [--baseline]; names:")
    for workload in RxSuite.workloads { print("  \(workload.name)") }
    exit(2)
  }
  let baseline = arguments.contains("--baseline")
  guard !baseline || workload.baseline != nil else {
    print("\(workload.name) has no baseline")
    exit(2)
  }
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    print(await RxSuite.run(workload, count: count, baseline: baseline))
    done.signal()
  }
  done.wait()
} else {
  Task {
    do {
      try await BenchmarkMain.run()
      exit(0)
    } catch {
      print("error: \(error)")
      exit(1)
    }
  }
  dispatchMain()
}
