/// Where a page is in its lifecycle, as its ``ComponentManager`` was told; decides which
/// hooks a component added or removed at run time gets, so that it ends up in step with
/// the components that were there all along.
enum PagePhase {
    /// The page has not loaded yet: new components wait for ``ComponentManager/pageDidLoad()``.
    case initial
    /// Loaded and not on screen (before it first appears, or after it disappeared).
    case loaded
    /// Between will appear and did appear.
    case appearing
    /// On screen.
    case visible
    /// Between will disappear and did disappear.
    case disappearing

    /// Brings a component that joins the page now up to this phase.
    @MainActor
    func enter<ViewModel>(_ component: any Component<ViewModel>) {
        guard self != .initial else { return }
        component.didLoad()
        if self == .appearing || self == .visible { component.willAppear() }
        if self == .visible { component.didAppear() }
    }

    /// Takes a component that leaves the page now off the screen, balancing the appear
    /// hooks it got.
    @MainActor
    func leave<ViewModel>(_ component: any Component<ViewModel>) {
        if self == .appearing || self == .visible { component.willDisappear() }
        if self == .appearing || self == .visible || self == .disappearing { component.didDisappear() }
    }
}
