import ActorMVVM
import ActorMVVMSupport

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// One iteration of `self` shared by every iterator, each new iterator
  /// first receiving the last `replay` elements: Rx's
  /// `share(replay:scope: .whileConnected)`.
  ///
  /// Make it once and iterate it from as many tasks as you like; each
  /// `makeAsyncIterator()` is one subscriber.
  ///
  /// - **Connection:** `self` is iterated from the first `next()` of any
  ///   subscriber, in a task of its own, once for all of them. When the last
  ///   subscriber ends (cancelled, dropped, or drained to the end), that
  ///   iteration is cancelled and the replay buffer emptied; the next
  ///   subscriber's `next()` iterates `self` afresh (Rx's `.whileConnected`).
  ///   When `self` ends or throws, every current subscriber gets that end
  ///   after its backlog, and a subscriber made afterwards starts a new
  ///   iteration (Rx re-subscribes the same way).
  /// - **Emits** to each subscriber: the last `replay` elements of the
  ///   current iteration (as of its `makeAsyncIterator()`), then every
  ///   element that arrives after, exactly once and in `self`'s order.
  /// - **Finishes / errors:** as `self` did, for the subscribers present when
  ///   it did. The `Failure` is `self`'s.
  /// - **Buffering:** unbounded, per subscriber, as `EventRelay`: `self` is
  ///   pulled as fast as it produces, and a slow subscriber's backlog grows
  ///   until it catches up (it takes the whole backlog in one lock
  ///   acquisition). The replay buffer holds at most `replay` elements.
  /// - **Cancellation:** a cancelled consumer gets nil at its next `next()`,
  ///   backlog dropped, and is unregistered; dropping an iterator does the
  ///   same. `self` is cancelled only when no subscriber is left.
  /// - **After the end:** once an iterator has returned nil or thrown, its
  ///   `next()` returns nil forever.
  /// - **One consumer per iterator**, as every iterator: two tasks waiting
  ///   on one iterator at once trap with a message.
  ///
  /// - Parameter replay: how many of the latest elements a new subscriber
  ///   receives first; 0 shares without replay (Rx's `share()`).
  @inlinable
  public func share(replay: Int = 0) -> AsyncShareSequence<Self> {
    precondition(replay >= 0, "share(replay:) takes a count of 0 or more")
    return AsyncShareSequence(base: self, replay: replay)
  }
}

/// The sequence returned by `share(replay:)`: a handle on one shared
/// connection; iterate it as often as you like (see the operator's contract).
public struct AsyncShareSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw: the upstream's.
  public typealias Failure = Base.Failure

  @usableFromInline let storage: ShareStorage<Base>

  @inlinable init(base: Base, replay: Int) {
    storage = ShareStorage(base: base, replay: replay)
  }

  /// Registers a new subscriber, with the replay as its first elements.
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(subscription: ShareSubscription(storage: storage)) }

  /// One subscriber: one consumer at a time; the contract is the operator's.
  ///
  /// `Sendable`, so subscribers can be registered before the tasks that
  /// consume them start: make every iterator first, then hand each to its
  /// task, and none misses an element the first one's `next()` lets in.
  public struct Iterator: AsyncIteratorProtocol, Sendable {
    /// The type of the elements.
    public typealias Element = Base.Element
    /// The type of error iteration can throw: the upstream's.
    public typealias Failure = Base.Failure

    @usableFromInline let subscription: ShareSubscription<Base>
    @usableFromInline var batch: [Element] = []
    @usableFromInline var index = 0
    @usableFromInline var ended = false

    @inlinable init(subscription: ShareSubscription<Base>) { self.subscription = subscription }

    /// The next element, or nil once the sequence has ended.
    @inlinable
    public mutating func next() async throws(Base.Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Element? {
      if ended { return nil }
      if Task.isCancelled {
        end()
        return nil
      }
      if index < batch.count {
        defer { index += 1 }
        return batch[index]
      }
      batch.removeAll(keepingCapacity: true)
      index = 0
      switch await subscription.storage.next(subscription.id, into: &batch, isolation: actor) {
      case .delivered:
        index = 1
        return batch[0]
      case .finished:
        end()
        return nil
      case .failed(let error):
        end()
        throw error
      }
    }

    @inlinable mutating func end() {
      ended = true
      batch = []
      subscription.storage.leave(subscription.id)
    }
  }
}

/// One subscriber's registration; unregisters when the last copy of its
/// iterator is dropped.
@usableFromInline
final class ShareSubscription<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
  @usableFromInline let storage: ShareStorage<Base>
  @usableFromInline let id: UInt64

  @inlinable init(storage: ShareStorage<Base>) {
    self.storage = storage
    id = storage.subscribe()
  }

  deinit { storage.leave(id) }
}

/// share's decisions (STYLE §3), without locks or tasks: the subscribers'
/// backlogs and ends, the replay buffer, and which iteration of the
/// upstream (a generation) is current, so a stale one's late events are
/// refused.
@usableFromInline
struct ShareStateMachine<Element, Failure: Error> {
  /// How a subscriber's sequence ended.
  @usableFromInline enum End {
    case finished
    case failed(Failure)
  }

  @usableFromInline struct Subscriber {
    @usableFromInline var backlog: [Element]
    @usableFromInline var end: End?
    @usableFromInline var waiter: UnsafeContinuation<Void, Never>?
    @usableFromInline var cancelled = false

    @inlinable init(backlog: [Element]) { self.backlog = backlog }

    /// Still waiting for the current iteration's elements.
    @inlinable var isLive: Bool { end == nil && !cancelled }
  }

  /// The upstream iteration: none, one being started, or one running.
  @usableFromInline enum Connection {
    case idle
    case starting(generation: UInt64)
    case running(generation: UInt64, task: Task<Void, Never>)
  }

  @usableFromInline let replay: Int
  @usableFromInline var replayed: [Element] = []
  /// Where the oldest replayed element is, once `replayed` is full.
  @usableFromInline var replayStart = 0
  @usableFromInline var subscribers: [UInt64: Subscriber] = [:]
  @usableFromInline var nextID: UInt64 = 0
  @usableFromInline var generation: UInt64 = 0
  @usableFromInline var connection = Connection.idle

  @inlinable init(replay: Int) { self.replay = replay }

  /// What a subscriber's `next` does.
  @usableFromInline enum Poll {
    case delivered
    case ended(End)
    /// Park; and if a generation is given, start that iteration first.
    case wait(start: UInt64?)
  }

  @inlinable
  mutating func subscribe() -> UInt64 {
    nextID &+= 1
    let backlog = Array(replayed[replayStart...] + replayed[..<replayStart])
    subscribers[nextID] = Subscriber(backlog: backlog)
    return nextID
  }

  @inlinable
  mutating func poll(_ id: UInt64, into delivery: inout [Element]) -> Poll {
    guard let subscriber = subscribers[id], !subscriber.cancelled else { return .ended(.finished) }
    if !subscriber.backlog.isEmpty {
      swap(&subscribers[id]!.backlog, &delivery)
      return .delivered
    }
    if let end = subscriber.end { return .ended(end) }
    guard case .idle = connection else { return .wait(start: nil) }
    generation &+= 1
    connection = .starting(generation: generation)
    return .wait(start: generation)
  }

  /// Parks `waiter`, or returns false if the subscriber has something (or
  /// has ended) and must not wait.
  @inlinable
  mutating func park(_ id: UInt64, _ waiter: UnsafeContinuation<Void, Never>) -> Bool {
    guard let subscriber = subscribers[id], subscriber.isLive, subscriber.backlog.isEmpty else { return false }
    precondition(subscriber.waiter == nil, "two tasks are iterating one share(replay:) iterator at once")
    subscribers[id]!.waiter = waiter
    return true
  }

  /// The task started for `generation`: kept if still current, else to be
  /// cancelled (returned).
  @inlinable
  mutating func started(_ task: Task<Void, Never>, generation: UInt64) -> Task<Void, Never>? {
    guard case .starting(let current) = connection, current == generation else { return task }
    connection = .running(generation: generation, task: task)
    return nil
  }

  @inlinable func isCurrent(_ generation: UInt64) -> Bool {
    switch connection {
    case .idle: false
    case .starting(let current), .running(let current, _): current == generation
    }
  }

  /// An element of iteration `generation`; false if it is stale.
  @inlinable
  mutating func element(_ element: Element, generation: UInt64, waking waiters: inout [UnsafeContinuation<Void, Never>])
    -> Bool
  {
    guard isCurrent(generation) else { return false }
    if replay > 0 {
      if replayed.count < replay {
        replayed.append(element)
      } else {
        replayed[replayStart] = element
        replayStart = (replayStart + 1) % replay
      }
    }
    for id in subscribers.keys where subscribers[id]!.isLive {
      subscribers[id]!.backlog.append(element)
      if let waiter = subscribers[id]!.waiter {
        subscribers[id]!.waiter = nil
        waiters.append(waiter)
      }
    }
    return true
  }

  /// The end of iteration `generation`: every live subscriber gets it;
  /// the connection is over.
  @inlinable
  mutating func ended(_ end: End, generation: UInt64, waking waiters: inout [UnsafeContinuation<Void, Never>]) {
    guard isCurrent(generation) else { return }
    for id in subscribers.keys where subscribers[id]!.isLive {
      subscribers[id]!.end = end
      if let waiter = subscribers[id]!.waiter {
        subscribers[id]!.waiter = nil
        waiters.append(waiter)
      }
    }
    disconnect()
  }

  /// Marks a subscriber cancelled, returning its waiter to wake.
  @inlinable
  mutating func cancel(_ id: UInt64) -> UnsafeContinuation<Void, Never>? {
    guard subscribers[id] != nil else { return nil }
    subscribers[id]!.cancelled = true
    defer { subscribers[id]!.waiter = nil }
    return subscribers[id]!.waiter
  }

  /// Unregisters a subscriber; if no live one is left, ends the
  /// connection and returns its task to cancel.
  @inlinable
  mutating func leave(_ id: UInt64) -> Task<Void, Never>? {
    guard subscribers.removeValue(forKey: id) != nil else { return nil }
    guard !subscribers.values.contains(where: \.isLive) else { return nil }
    return disconnect()
  }

  @inlinable @discardableResult
  mutating func disconnect() -> Task<Void, Never>? {
    defer {
      connection = .idle
      replayed.removeAll()
      replayStart = 0
    }
    if case .running(_, let task) = connection { return task }
    return nil
  }
}

/// share's storage: the state machine under one lock, and the task that
/// iterates the upstream.
@usableFromInline
final class ShareStorage<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
  @usableFromInline typealias Machine = ShareStateMachine<Base.Element, Base.Failure>

  @usableFromInline let base: Base
  @usableFromInline let state: Locked<Machine>

  @inlinable init(base: Base, replay: Int) {
    self.base = base
    state = Locked(Machine(replay: replay))
  }

  @inlinable func subscribe() -> UInt64 { state.withLock { $0.subscribe() } }

  @inlinable func leave(_ id: UInt64) { state.withLock { $0.leave(id) }?.cancel() }

  @usableFromInline enum Delivery {
    case delivered
    case finished
    case failed(Base.Failure)
  }

  /// The subscriber's backlog, moved into `delivery`, waiting for one if
  /// there is none; or its end.
  @inlinable
  func next(_ id: UInt64, into delivery: inout [Base.Element], isolation actor: isolated (any Actor)?) async
    -> Delivery
  {
    while true {
      if Task.isCancelled { return .finished }
      switch state.withLock({ $0.poll(id, into: &delivery) }) {
      case .delivered: return .delivered
      case .ended(.finished): return .finished
      case .ended(.failed(let error)): return .failed(error)
      case .wait(let start):
        if let start { connect(generation: start) }
      }
      await withTaskCancellationHandler(
        operation: {
          await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Void, Never>) in
            if !state.withLock({ $0.park(id, continuation) }) { continuation.resume() }
          }
        },
        onCancel: { state.withLock { $0.cancel(id) }?.resume() },
        isolation: actor)
    }
  }

  /// Starts iteration `generation` of the upstream.
  @inlinable
  func connect(generation: UInt64) {
    let pump: @Sendable () async -> Void = { await self.pump(generation: generation) }
    // In a test bubble the pump prefers the bubble's counting executor.
    let task =
      TaskScope.preferred.flatMap {
        TaskScope.task(preferring: $0, named: "share pump, iteration \(generation)", immediate: false, pump)
      } ?? Task(operation: pump)
    state.withLock { $0.started(task, generation: generation) }?.cancel()
  }

  @inlinable
  func pump(generation: UInt64) async {
    var iterator = base.makeAsyncIterator()
    var waiters: [UnsafeContinuation<Void, Never>] = []
    do throws(Base.Failure) {
      while let element = try await iterator.next(isolation: nil) {
        let current = state.withLock { $0.element(element, generation: generation, waking: &waiters) }
        for waiter in waiters { waiter.resume() }
        waiters.removeAll(keepingCapacity: true)
        if !current || Task.isCancelled { return }
      }
      state.withLock { $0.ended(.finished, generation: generation, waking: &waiters) }
    } catch {
      state.withLock { $0.ended(.failed(error), generation: generation, waking: &waiters) }
    }
    for waiter in waiters { waiter.resume() }
  }
}
