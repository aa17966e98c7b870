import Foundation
import Hummingbird
import NIOCore

/// The page's script, style and icon, read from the module's resources once and served as
/// they are. Every page links the icon, so browsers do not ask for a missing `/favicon.ico`.
enum Assets {
    static let script = Bundle.moduleText("dashboard", "js")
    static let style = Bundle.moduleText("dashboard", "css")
    static let icon = Bundle.moduleText("icon", "svg")

    static func add(to router: Router<DashboardRequestContext>) {
        router.get("/assets/dashboard.js") { _, _ in response(script, type: "text/javascript; charset=utf-8") }
        router.get("/assets/dashboard.css") { _, _ in response(style, type: "text/css; charset=utf-8") }
        router.get("/assets/icon.svg") { _, _ in response(icon, type: "image/svg+xml") }
    }

    private static func response(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
