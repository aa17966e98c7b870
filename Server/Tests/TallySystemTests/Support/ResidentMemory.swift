import Foundation

/// The resident memory of process `id` in bytes (`VmRSS` of `/proc/<id>/status`), or `nil`
/// where there is no such file.
func residentBytes(of id: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(id)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kibibytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kibibytes * 1024
}
