import ActorMVVM
import ActorMVVMUI
import Foundation
import Observation

/// The view bridge's cost: a `FeatureModel` on the main actor against a
/// main-actor loop over `stateValues`, the hand-written render loop it
/// replaces.
@MainActor
enum ModelWorkloads {
  /// Returns when `model.count` changed: the instant observation reported
  /// it (inside the model's update, before this task resumes).
  static func nextChange(of model: FeatureModel<Counter>) async -> ContinuousClock.Instant {
    await withCheckedContinuation { (continuation: CheckedContinuation<ContinuousClock.Instant, Never>) in
      withObservationTracking {
        _ = model.count
      } onChange: {
        continuation.resume(returning: ContinuousClock.now)
      }
    }
  }

  /// Send → the new count readable on the model, in µs, sorted.
  static func latency(samples: Int) async -> [Double] {
    let feature = Feature(Counter(), initialState: .init(), counters: LifetimeCounters())
    let model = FeatureModel(feature)
    await model.caughtUp()  // no effects: the same as settled()
    var result: [Double] = []
    result.reserveCapacity(samples)
    for expected in 1...samples {
      let start = ContinuousClock.now
      feature.send(.add)
      var changed = start
      while model.count < expected { changed = await nextChange(of: model) }
      result.append(seconds(changed - start) * 1e6)
    }
    await feature.finish()
    return result.sorted()
  }

  /// The same through a main-actor loop over `stateValues`.
  static func latencyStateValues(samples: Int) async -> [Double] {
    let feature = Feature(Counter(), initialState: .init(), counters: LifetimeCounters())
    var states = feature.stateValues.makeAsyncIterator()
    _ = await states.next(isolation: MainActor.shared)
    var result: [Double] = []
    result.reserveCapacity(samples)
    for expected in 1...samples {
      let start = ContinuousClock.now
      feature.send(.add)
      while let state = await states.next(isolation: MainActor.shared), state.count < expected {}
      result.append(seconds(ContinuousClock.now - start) * 1e6)
    }
    await feature.finish()
    return result.sorted()
  }

  /// States applied per second while a detached task sends `inputs`
  /// inputs one at a time (conflated: the model applies what it keeps up
  /// with), until the model holds the last.
  static func states(inputs: Int) async -> Double {
    let feature = Feature(Counter(), initialState: .init(), counters: LifetimeCounters())
    let model = FeatureModel(feature)
    await model.caughtUp()  // no effects: the same as settled()
    let applied = model.appliedStateCount
    let start = ContinuousClock.now
    await Task.detached { for _ in 0..<inputs { feature.send(.add) } }.value
    await model.caughtUp()  // no effects: the same as settled()
    let elapsed = ContinuousClock.now - start
    precondition(model.count == inputs)
    await feature.finish()
    return Double(model.appliedStateCount - applied) / seconds(elapsed)
  }

  /// The same through a main-actor loop over `stateValues`.
  static func statesStateValues(inputs: Int) async -> Double {
    let feature = Feature(Counter(), initialState: .init(), counters: LifetimeCounters())
    var states = feature.stateValues.makeAsyncIterator()
    _ = await states.next(isolation: MainActor.shared)
    let start = ContinuousClock.now
    let producer = Task.detached { for _ in 0..<inputs { feature.send(.add) } }
    var seen = 0
    while let state = await states.next(isolation: MainActor.shared) {
      seen += 1
      if state.count == inputs { break }
    }
    let elapsed = ContinuousClock.now - start
    await producer.value
    await feature.finish()
    return Double(seen) / seconds(elapsed)
  }
}
