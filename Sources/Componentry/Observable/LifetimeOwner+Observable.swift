extension LifetimeOwner {
    /// Starts an observation of `observable` owned by `self`: it ends when `self` is
    /// deallocated.
    ///
    /// ```swift
    /// observe(model.selectedDate).onMainActor().didChange { [weak self] date, _ in
    ///     self?.render(date)
    /// }
    /// ```
    public func observe<Value>(_ observable: Observable<Value>) -> ObserverBuilder<Value> {
        observable.observe().owner(self)
    }

    /// Starts an observation of `observable` owned by `self`: it ends when `self` is
    /// deallocated.
    public func observe<Value>(_ observable: ReadOnlyObservable<Value>) -> ObserverBuilder<Value> {
        observe(observable.base)
    }
}
