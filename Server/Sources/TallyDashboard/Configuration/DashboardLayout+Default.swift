import Foundation

extension DashboardLayout {
    /// The sections of the original bookkeeping app's dashboard, for the demo app: the file
    /// `default-dashboard.yaml` shipped with this module, and a starting point for a layout
    /// of one's own.
    public static let `default`: DashboardLayout = {
        do {
            return try DashboardLayout(yaml: defaultText)
        } catch {
            preconditionFailure("the bundled default-dashboard.yaml does not parse (its tests say why): \(error)")
        }
    }()

    /// The text of `default-dashboard.yaml`.
    public static var defaultText: String { Bundle.moduleText("default-dashboard", "yaml") }
}
