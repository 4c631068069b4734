import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTesting
import Testing

/// Correctness under load: counts and order, not speed. Bounded in count;
/// the whole suite runs in seconds, also under the thread sanitizer
/// (`Scripts/stress.sh`).
@Suite("Runtime stress")
struct RuntimeStressTests {
  /// Records per-sender sequence numbers and counts order violations.
  struct Recorder: StateMachine {
    struct State: Equatable, Sendable {
      var reduced = 0
      var next: [Int]
      var outOfOrder = 0
    }
    enum Input: Sendable { case record(sender: Int, sequence: Int) }
    typealias Output = Never

    func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
      guard case .record(let sender, let sequence) = input else { return .none }
      state.reduced += 1
      if state.next[sender] != sequence { state.outOfOrder += 1 }
      state.next[sender] = sequence + 1
      return .none
    }
  }

  @Test(
    "64 senders × 10,000 inputs: each reduced exactly once, per-sender order kept, subscribers end on the final state")
  func manySenders() async {
    let senders = 64
    let perSender = 10_000
    let counters = LifetimeCounters()
    let feature = Feature(
      Recorder(), initialState: .init(next: Array(repeating: 0, count: senders)), counters: counters)
    let subscribers = (0..<4).map { index in
      index.isMultiple(of: 2) ? follow(feature.states) : follow(feature.stateValues)
    }
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<senders {
        group.addTask {
          for sequence in 0..<perSender { feature.send(.record(sender: sender, sequence: sequence)) }
        }
      }
    }
    await feature.finish()
    let final = await feature.state
    #expect(final.reduced == senders * perSender)
    #expect(final.outOfOrder == 0)
    #expect(final.next.allSatisfy { $0 == perSender })
    for subscriber in subscribers {
      let (last, increasing) = await subscriber.value
      #expect(last == final)
      #expect(increasing)
    }
    #expect(counters.subscriptions == 0)
  }

  /// Reads states until the stream ends: the last one, and whether they only increased.
  func follow<States: AsyncSequence & Sendable>(
    _ states: States
  ) -> Task<(Recorder.State?, Bool), Never> where States.Element == Recorder.State, States.Failure == Never {
    Task {
      var last: Recorder.State?
      var increasing = true
      for await state in states {
        if let last, state.reduced <= last.reduced { increasing = false }
        last = state
      }
      return (last, increasing)
    }
  }

  /// A feature whose inputs start superseding effects.
  struct Searcher: StateMachine {
    struct State: Equatable, Sendable {
      var latestQuery = -1
      var results: [Int] = []
      var stale = 0
    }
    enum Input: Sendable {
      case queryChanged(Int)
      case resultsArrived(Int)
    }
    typealias Output = Never
    enum CancelID: Hashable, Sendable { case search }
    /// How many runs got a task (a run superseded within its batch never does).
    let started = Locked(0)

    func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
      switch input {
      case .queryChanged(let query):
        state.latestQuery = query
        return .run(id: CancelID.search) { [started] send in
          started.withLock { $0 += 1 }
          await Task.yield()
          send(.resultsArrived(query))
        }
      case .resultsArrived(let query):
        if query != state.latestQuery { state.stale += 1 }
        state.results.append(query)
        return .none
      }
    }
  }

  // These two are guarded against a hang by their progress, not their
  // pace (`withProgressGuard`): alone each takes about a second, but the
  // sanitized suite runs every stress test at once on two cores, and there
  // they have taken 38–95 s, at times waiting a minute behind another
  // test's jobs. A minute without a step, and then 100 passes of the pool's
  // queue without one, is a hang.
  @Test("1,000 features created, driven and finished concurrently: nothing leaks")
  func manyFeatures() async {
    let counters = LifetimeCounters()
    await withProgressGuard { progress in
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<1_000 {
          group.addTask {
            let feature = Feature(Searcher(), initialState: .init(), counters: counters)
            let outputs = feature.outputs
            let states = feature.stateValues
            for query in 0..<20 { feature.send(.queryChanged(index * 100 + query)) }
            if index.isMultiple(of: 2) { await feature.idle() }
            await feature.finish()
            let state = await feature.state
            #expect(state.stale == 0)
            for await _ in outputs {}
            for await _ in states {}
            progress.tick()
          }
        }
      }
      await counters.waitForFeatures(atMost: 0)  // a drain task may hold a feature a moment past its finish
    }
    #expect(counters.snapshot == .zero)
  }

  /// The output relay is made by whichever comes first, a subscription or
  /// `finish()`: racing them, every subscription still ends, and a
  /// subscription made before the finish sees every output emitted after it.
  @Test("Output subscriptions racing finish (the lazily made relay): every one ends")
  func outputSubscriptionsRaceFinish() async {
    let counters = LifetimeCounters()
    await withProgressGuard { progress in
      for round in 0..<200 {
        let feature = Feature(Searcher(), initialState: .init(), counters: counters)
        await withTaskGroup(of: Void.self) { group in
          for subscriber in 0..<4 {
            group.addTask {
              if subscriber.isMultiple(of: 2) {
                for await _ in feature.outputValues {}
              } else {
                for await _ in feature.outputs {}
              }
              progress.tick()
            }
          }
          group.addTask { await feature.finish() }
          feature.send(.queryChanged(round))
        }
      }
      await counters.waitForFeatures(atMost: 0)
    }
    #expect(counters.snapshot == .zero)
  }

  @Test("Superseding storm: 100,000 superseding effects, no stale result lands")
  func cancellationStorm() async {
    let counters = LifetimeCounters()
    let searcher = Searcher()
    let feature = Feature(searcher, initialState: .init(), counters: counters)
    // The first half one batch per query: every run gets a task and is
    // superseded while in flight. The second half in bursts: runs superseded
    // within their batch never start.
    for query in 0..<50_000 {
      feature.send(.queryChanged(query))
      await feature.flush()
    }
    await feature.idle()  // every task has returned, so every start is counted
    #expect(searcher.started.withLock { $0 } == 50_000)
    for query in 50_000..<100_000 {
      feature.send(.queryChanged(query))
      if query.isMultiple(of: 5_000) { await feature.flush() }
    }
    await feature.idle()
    let state = await feature.state
    #expect(state.stale == 0)
    #expect(state.results.last == 99_999)
    #expect(searcher.started.withLock { $0 } < 100_000)
    await feature.finish()
    #expect(counters.effects == 0)
  }
}
