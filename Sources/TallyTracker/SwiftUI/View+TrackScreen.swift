#if canImport(SwiftUI)
    public import SwiftUI

    extension View {
        /// Records a `screen_view` for the screen `name` (``Tracker/screen(_:_:)``) each time
        /// this view appears, with `tracker`, or else the environment's ``SwiftUI/EnvironmentValues/tracker``.
        public func trackScreen(_ name: String, _ properties: [String: PropertyValue] = [:], tracker: Tracker? = nil) -> some View {
            modifier(ScreenTracking(name: name, properties: properties, tracker: tracker))
        }
    }

    extension EnvironmentValues {
        /// The tracker that ``SwiftUI/View/trackScreen(_:_:tracker:)`` records with: set it once at the
        /// root, with `.environment(\.tracker, tracker)`.
        public var tracker: Tracker? {
            get { self[TrackerKey.self] }
            set { self[TrackerKey.self] = newValue }
        }
    }

    private struct TrackerKey: EnvironmentKey {
        static let defaultValue: Tracker? = nil
    }

    private struct ScreenTracking: ViewModifier {
        let name: String
        let properties: [String: PropertyValue]
        let tracker: Tracker?
        @Environment(\.tracker) private var environmentTracker

        func body(content: Content) -> some View {
            content.onAppear { (tracker ?? environmentTracker)?.screen(name, properties) }
        }
    }
#endif
