extension LifetimeOwner {
    /// Starts an observation of `observable` owned by `self`: it ends when `self` is
    /// deallocated, and its callback gets `self` as its first parameter.
    ///
    /// ```swift
    /// observe(model.selectedDate).onMainActor().didChange { screen, date, _ in
    ///     screen.render(date)
    /// }
    /// ```
    public func observe<Value>(_ observable: Observable<Value>) -> OwnedObserverBuilder<Self, Value> {
        observable.observe().owner(self)
    }

    /// Starts an observation of `observable` owned by `self`: it ends when `self` is
    /// deallocated, and its callback gets `self` as its first parameter.
    public func observe<Value>(_ observable: ReadOnlyObservable<Value>) -> OwnedObserverBuilder<Self, Value> {
        observe(observable.base)
    }
}
