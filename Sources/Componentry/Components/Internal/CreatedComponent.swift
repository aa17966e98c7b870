/// A component a factory created, with its object: what a ``ComponentManager`` keeps in its
/// collections, finds by type with `as?` and compares with `===`, none of which a bare
/// `any Component<ViewModel>` allows below iOS 16 and macOS 13.
struct CreatedComponent<ViewModel> {
    let component: any Component<ViewModel>
    let object: AnyObject

    init<C: Component<ViewModel>>(_ component: C) {
        self.component = component
        object = component
    }
}
