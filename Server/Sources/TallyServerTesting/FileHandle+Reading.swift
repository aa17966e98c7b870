public import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
#endif

extension FileHandle {
    /// The next bytes the handle gives, waiting for some; empty at the end of the file (or on
    /// a read error).
    ///
    /// Foundation's `availableData` and `readDataToEndOfFile()` trap when a signal interrupts
    /// their read (`EINTR`): a child process's exit in a parallel test interrupts reads of
    /// other threads. This read is retried.
    public func nextBytes() -> Data {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fileDescriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Data(buffer[..<count]) }
            if errno != EINTR { return Data() }
        }
    }

    /// Every byte up to the end of the file, read as ``nextBytes()`` reads.
    public func bytesToEnd() -> Data {
        var data = Data()
        while case let chunk = nextBytes(), !chunk.isEmpty { data.append(chunk) }
        return data
    }
}
