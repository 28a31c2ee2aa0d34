import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A network or TLS failure from a library, as an ``UpstreamError`` that reads clearly
/// ("connection refused by 127.0.0.1:8080") and carries no file path, internals or secret:
/// it is shown on pages, in `/readyz` and in the log.
enum TransportFailure {
    /// How an attempt that threw `error` while talking to `url` ended: `nil` when the task
    /// was cancelled (stopping: how the connection ended is not worth reporting).
    static func outcome(of error: any Error, url: URL) -> UpstreamAttemptOutcome? {
        Task.isCancelled ? nil : .ended(upstreamError(error, url: url))
    }

    /// What `error`, met while talking to `url`, means.
    static func upstreamError(_ error: any Error, url: URL) -> UpstreamError {
        if let error = error as? UpstreamError { return error }
        let place = UpstreamEndpoint.hostAndPort(of: url)
        if let error = error as? HTTPClientError {
            if error == .readTimeout || error == .deadlineExceeded { return .readTimeout }
            if error == .connectTimeout { return .transport("connecting to \(place) timed out") }
            if error == .remoteConnectionClosed { return .transport("upstream closed the connection") }
        }
        if let message = describe(error, place: place) { return .transport(message) }
        let text = URLRedaction.redactingURLs(in: withoutFileLocations(String(describing: error)))
        return .transport(String(text.prefix(300)))
    }

    /// The words for the errors NIO reports when connecting, or `nil`.
    private static func describe(_ error: any Error, place: String) -> String? {
        switch error {
        case let error as IOError:
            return describe(errno: error.errnoCode, place: place)
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return describe(first.error, place: place) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "cannot resolve the host of \(place)" }
            return "cannot connect to \(place)"
        case let error as ChannelError:
            if case .connectTimeout = error { return "connecting to \(place) timed out" }
            return nil
        case let error as NIOSSLError:
            if case .handshakeFailed(let reason) = error {
                // BoringSSL's reasons are the upper-case words, e.g. CERTIFICATE_VERIFY_FAILED.
                let words = withoutFileLocations(String(describing: reason))
                    .split(whereSeparator: { ":[]() ,".contains($0) })
                    .filter { $0.count > 3 && $0.allSatisfy { $0.isUppercase || $0 == "_" } }
                return "TLS handshake with \(place) failed"
                    + (words.isEmpty ? "" : ": " + words.joined(separator: ", "))
            }
            return "TLS with \(place) failed"
        default:
            return nil
        }
    }

    private static func describe(errno: CInt, place: String) -> String {
        switch errno {
        case ECONNREFUSED: return "connection refused by \(place)"
        case ECONNRESET: return "connection reset by \(place)"
        case ETIMEDOUT: return "connecting to \(place) timed out"
        case EHOSTUNREACH, ENETUNREACH: return "\(place) is unreachable"
        case ECONNABORTED, EPIPE: return "the connection to \(place) was broken"
        default: return "connection to \(place) failed: \(String(cString: strerror(errno)))"
        }
    }

    /// `text` without ` at /some/file.c:123` source locations.
    static func withoutFileLocations(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let range = rest.range(of: " at /") {
            out += rest[..<range.lowerBound]
            rest = rest[range.upperBound...].drop { !" ])\n,".contains($0) }
        }
        return out + rest
    }
}
