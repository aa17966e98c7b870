import Foundation

/// The platform's notifications that the app came to the foreground or left it, by name, so
/// that the SDK links no UI framework (and its logic runs, and is tested, anywhere).
enum AppLifecycle {
    #if os(macOS)
        static let didBecomeActive = Notification.Name("NSApplicationDidBecomeActiveNotification")
        /// A Mac app in another app's shadow is the Mac's "background".
        static let didEnterBackground = Notification.Name("NSApplicationDidResignActiveNotification")
    #elseif os(watchOS)
        static let didBecomeActive = Notification.Name("WKApplicationDidBecomeActiveNotification")
        static let didEnterBackground = Notification.Name("WKApplicationDidEnterBackgroundNotification")
    #else
        // UIKit: iOS, iPadOS, Mac Catalyst, tvOS, visionOS (and what tests post elsewhere).
        static let didBecomeActive = Notification.Name("UIApplicationDidBecomeActiveNotification")
        static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    #endif
}

/// Forwards the lifecycle notifications to the recorder while it lives; removes its observers
/// when released (with its ``Tracker``).
final class LifecycleObserver: @unchecked Sendable {
    // @unchecked: both properties are immutable after init, `NotificationCenter` is
    // thread-safe, and the observer tokens are only handed back to it.
    private let center: NotificationCenter
    private let tokens: [any NSObjectProtocol]

    init(center: NotificationCenter, recorder: Recorder, pipeline: Pipeline) {
        self.center = center
        tokens = [
            center.addObserver(forName: AppLifecycle.didBecomeActive, object: nil, queue: nil) { _ in
                recorder.enterForeground()
            },
            center.addObserver(forName: AppLifecycle.didEnterBackground, object: nil, queue: nil) { _ in
                recorder.enterBackground()
                pipeline.uploadSoon()
            },
        ]
    }

    deinit {
        tokens.forEach(center.removeObserver)
    }
}
