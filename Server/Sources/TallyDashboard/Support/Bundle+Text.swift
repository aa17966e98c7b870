import Foundation

extension Bundle {
    /// The text of the resource `name.ext` shipped with this module.
    ///
    /// The resources are part of the build, and tests read each one, so a missing one is a
    /// broken build, never something a client can cause: it stops the server at start.
    static func moduleText(_ name: String, _ ext: String) -> String {
        guard let url = module.url(forResource: name, withExtension: ext), let text = try? String(contentsOf: url, encoding: .utf8)
        else { preconditionFailure("\(name).\(ext) is missing from the TallyDashboard bundle") }
        return text
    }
}
