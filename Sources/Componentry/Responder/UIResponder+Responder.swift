#if canImport(UIKit)
    public import UIKit

    /// Every UIKit responder — view, view controller, window, application — is a
    /// ``Responder`` whose chain is UIKit's own, so events raised in a view bubble the way
    /// touches do.
    extension UIResponder: Responder {
        /// UIKit's `next` responder.
        public var nextInChain: (any Responder)? {
            next
        }
    }
#endif
