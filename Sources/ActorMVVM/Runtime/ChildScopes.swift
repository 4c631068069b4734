/// Children in a collection, each one a ``StateMachine`` on its element of
/// an array in the parent's state: a list of rows, each with its own
/// effects (TCA's `forEach`). The parent keeps `[Child.State]` (elements
/// `Identifiable`), carries a child input with its element's id in one of
/// its own cases, and runs each transition through ``reduce(into:_:then:)``:
///
/// ```swift
/// struct Todos: StateMachine {
///   struct State: Equatable, Sendable { var todos: [Todo.State] = [] }
///   enum Input: Sendable { case todo(Todo.State.ID, Todo.Input), addTapped(String), clearCompletedTapped }
///   typealias Output = Never
///   let rows = ForEachScope(Todo(), state: \State.todos,
///     input: { if case .todo(let id, let input) = $0 { (id, input) } else { nil } },
///     embed: Input.todo)
///
///   func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
///     rows.reduce(into: &state, input) { state, input in
///       switch input {  // the parent's own rules; it sees the rows' inputs too, after them
///       case .addTapped(let title): state.todos.append(Todo.State(title: title)); return .none
///       case .clearCompletedTapped: state.todos.removeAll(where: \.isDone); return .none
///       case .todo: return .none
///       }
///     }
///   }
/// }
/// ```
///
/// What holds, with no bookkeeping in the parent or the children:
/// - **A child input reaches its element only**, reduced synchronously
///   inside the parent's transition (before the parent's own closure, which
///   sees it too); an input for an id no longer in the array is ignored
///   (a late tap on a deleted row).
/// - **Each element's effects are its own:** their results come back
///   through `embed` with the element's id; their cancellation ids are
///   scoped by the array's path and the element's id, so two rows' runs
///   with the same id never supersede each other.
/// - **A removed element's effects are cancelled** in the transition that
///   removed it — whoever removed it, the parent or the child — with or
///   without ids, and their late results are dropped (so `finish()` does
///   not wait on a deleted row's request).
///
/// Cost: each transition compares the array's ids before and after (one
/// pass over the ids); finding an element is a linear search.
public struct ForEachScope<ParentState, ParentInput: Sendable, ParentOutput: Sendable, Child: StateMachine>: Sendable
where Child.State: Identifiable, Child.State.ID: Sendable {
  /// An element's identity.
  public typealias ID = Child.State.ID

  /// The child machine each element runs.
  public let child: Child
  @usableFromInline let state: WritableKeyPath<ParentState, [Child.State]> & Sendable
  @usableFromInline let extract: @Sendable (ParentInput) -> (ID, Child.Input)?
  @usableFromInline let embed: @Sendable (ID, Child.Input) -> ParentInput
  @usableFromInline let output: @Sendable (ID, Child.Output) -> ParentOutput

  /// - Parameters:
  ///   - child: the machine each element runs.
  ///   - state: where the parent keeps the elements.
  ///   - input: the element id and child input inside a parent input, or
  ///     nil if it is not one of the children's.
  ///   - embed: the parent input that carries a child input for an element
  ///     (the element's effects send their results through it).
  ///   - output: the parent output for an element's output.
  public init(
    _ child: Child,
    state: WritableKeyPath<ParentState, [Child.State]> & Sendable,
    input: @escaping @Sendable (ParentInput) -> (ID, Child.Input)?,
    embed: @escaping @Sendable (ID, Child.Input) -> ParentInput,
    output: @escaping @Sendable (ID, Child.Output) -> ParentOutput
  ) {
    self.child = child
    self.state = state
    self.extract = input
    self.embed = embed
    self.output = output
  }

  /// A scope for children with no outputs (`Output == Never`).
  public init(
    _ child: Child,
    state: WritableKeyPath<ParentState, [Child.State]> & Sendable,
    input: @escaping @Sendable (ParentInput) -> (ID, Child.Input)?,
    embed: @escaping @Sendable (ID, Child.Input) -> ParentInput
  ) where Child.Output == Never {
    self.init(child, state: state, input: input, embed: embed, output: absurdOutput)
  }

  /// One transition of the parent with its children: a child input is
  /// reduced by its element's machine, then `parent` (the parent's own
  /// rules) reduces the input, whatever it is; then every element no longer
  /// in the array has its effects cancelled. Returns the merged effects, in
  /// that order.
  public func reduce(
    into state: inout ParentState, _ input: ParentInput,
    then parent: (inout ParentState, ParentInput) -> Effect<ParentInput, ParentOutput>
  ) -> Effect<ParentInput, ParentOutput> {
    let before = state[keyPath: self.state].map(\.id)
    var effects: [Effect<ParentInput, ParentOutput>] = []
    if let (id, childInput) = extract(input),
      let index = state[keyPath: self.state].firstIndex(where: { $0.id == id })
    {
      let (embed, output, path) = (self.embed, self.output, self.state)
      effects.append(
        child.reduce(into: &state[keyPath: self.state][index], childInput).map(
          input: { embed(id, $0) }, output: { output(id, $0) },
          namespace: { AnyCancelID(ElementNamespace(path: path, id: AnyCancelID(id))) }, identifyingAll: true))
    }
    effects.append(parent(&state, input))
    let after = state[keyPath: self.state]
    if before.count != after.count || zip(before, after).contains(where: { $0 != $1.id }) {
      let remaining = Set(after.map(\.id))
      for id in before where !remaining.contains(id) {
        let namespace = AnyCancelID(ElementNamespace(path: self.state, id: AnyCancelID(id)))
        effects.append(Effect(kind: .cancel(AnyCancelID(NamespaceCancellation(namespace: namespace)))))
      }
    }
    return effects.count == 1 ? effects[0] : .merge(effects)
  }
}

/// An optional child: a ``StateMachine`` on an optional field of the
/// parent's state, present while a sheet or a detail is shown (TCA's
/// `ifLet`). The parent runs each transition through
/// ``reduce(into:_:then:)``:
///
/// ```swift
/// let detail = IfLetScope(Detail(), state: \State.detail,
///   input: { if case .detail(let input) = $0 { input } else { nil } }, embed: Input.detail)
///
/// func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
///   detail.reduce(into: &state, input) { state, input in
///     switch input {
///     case .rowTapped(let id): state.detail = Detail.State(id: id); return .none
///     case .closeTapped: state.detail = nil; return .none  // its effects are cancelled
///     case .detail: return .none
///     }
///   }
/// }
/// ```
///
/// - **A child input reaches the child while it is present**, reduced
///   before the parent's closure (which sees it too); while it is absent
///   the input is ignored by the child.
/// - **Its effects are its own:** results come back through `embed`;
///   cancellation ids are scoped by the field's path.
/// - **Dismissing it cancels its effects**: a transition that leaves the
///   field nil when it was not cancels every run the child started, with or
///   without ids, and drops their late results. (A child replaced by another
///   value in one transition keeps its runs: set it to nil to end them.)
public struct IfLetScope<ParentState, ParentInput: Sendable, ParentOutput: Sendable, Child: StateMachine>: Sendable {
  /// The child machine.
  public let child: Child
  @usableFromInline let state: WritableKeyPath<ParentState, Child.State?> & Sendable
  @usableFromInline let extract: @Sendable (ParentInput) -> Child.Input?
  @usableFromInline let embed: @Sendable (Child.Input) -> ParentInput
  @usableFromInline let output: @Sendable (Child.Output) -> ParentOutput

  /// - Parameters:
  ///   - child: the child machine.
  ///   - state: the optional field where the parent keeps the child's state.
  ///   - input: the child's input inside a parent input, or nil.
  ///   - embed: the parent input that carries a child input.
  ///   - output: the parent output for each child output.
  public init(
    _ child: Child,
    state: WritableKeyPath<ParentState, Child.State?> & Sendable,
    input: @escaping @Sendable (ParentInput) -> Child.Input?,
    embed: @escaping @Sendable (Child.Input) -> ParentInput,
    output: @escaping @Sendable (Child.Output) -> ParentOutput
  ) {
    self.child = child
    self.state = state
    self.extract = input
    self.embed = embed
    self.output = output
  }

  /// A scope for a child with no outputs (`Output == Never`).
  public init(
    _ child: Child,
    state: WritableKeyPath<ParentState, Child.State?> & Sendable,
    input: @escaping @Sendable (ParentInput) -> Child.Input?,
    embed: @escaping @Sendable (Child.Input) -> ParentInput
  ) where Child.Output == Never {
    self.init(child, state: state, input: input, embed: embed, output: absurd)
  }

  /// One transition of the parent with its child: a child input is reduced
  /// by the child if it is present, then `parent` reduces the input; if the
  /// child was present and is not any more, its effects are cancelled.
  public func reduce(
    into state: inout ParentState, _ input: ParentInput,
    then parent: (inout ParentState, ParentInput) -> Effect<ParentInput, ParentOutput>
  ) -> Effect<ParentInput, ParentOutput> {
    let wasPresent = state[keyPath: self.state] != nil
    let path = self.state
    var effects: [Effect<ParentInput, ParentOutput>] = []
    if let childInput = extract(input), state[keyPath: self.state] != nil {
      effects.append(
        child.reduce(into: &state[keyPath: self.state]!, childInput).map(
          input: embed, output: output, namespace: { AnyCancelID(ScopeNamespace(path: path)) },
          identifyingAll: true))
    }
    effects.append(parent(&state, input))
    if wasPresent, state[keyPath: self.state] == nil {
      let namespace = AnyCancelID(ScopeNamespace(path: path))
      effects.append(Effect(kind: .cancel(AnyCancelID(NamespaceCancellation(namespace: namespace)))))
    }
    return effects.count == 1 ? effects[0] : .merge(effects)
  }
}

/// An element's namespace in a ``ForEachScope``: the array's path and the
/// element's id. Traces show it as `todos[id]`.
@usableFromInline
struct ElementNamespace: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let path: AnyKeyPath & Sendable
  @usableFromInline let id: AnyCancelID

  @usableFromInline init(path: AnyKeyPath & Sendable, id: AnyCancelID) {
    self.path = path
    self.id = id
  }

  @usableFromInline static func == (lhs: Self, rhs: Self) -> Bool { lhs.path == rhs.path && lhs.id == rhs.id }
  @usableFromInline func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(id)
  }

  @usableFromInline var description: String { "\(ScopeNamespace(path: path).description)[\(id.description)]" }
}

/// The output function of a child whose outputs are `Never`: never called.
@usableFromInline
func absurdOutput<ID, T>(_ id: ID, _ never: Never) -> T {}
