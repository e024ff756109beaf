/// Why a network operation failed, with which deadline ran out. Each message reads as one line.
public enum HTTPTransferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection within the connect deadline.
    case connectTimedOut(host: String, after: Duration)
    /// No part of the response (its head, or the next piece of its body) arrived within the
    /// first-byte deadline: the server is silent, or trickles bytes too slowly to finish one.
    case serverSilent(host: String, after: Duration)
    /// The whole operation outlasted the total deadline (a server trickling its answer).
    case totalDeadlineExceeded(host: String, after: Duration)
    /// The response body is larger than allowed (once decompressed, when it came compressed).
    case tooLarge(limit: Int)
    /// A check of the body as it arrived refused it (a part too large, say).
    case refusedBody(host: String, reason: String)
    /// The host name has no address (offline, or no such host).
    case hostNotFound(host: String)
    /// Nothing listens at the address.
    case connectionRefused(host: String)
    /// The body's `Content-Encoding` (gzip or deflate) could not be decoded.
    case undecodableBody(host: String)
    /// The server closed the connection before sending a response.
    case closedBeforeAnswering(host: String)
    /// Anything else: TLS failure, reset, an unreachable network.
    case failed(host: String, reason: String)

    public var description: String {
        switch self {
        case .connectTimedOut(let host, let after):
            "could not connect to \(host) within \(after.secondsText) (the connect timeout)"
        case .serverSilent(let host, let after):
            "\(host) sent no part of its answer for \(after.secondsText), silent or trickling (the first-byte timeout)"
        case .totalDeadlineExceeded(let host, let after):
            "\(host) did not finish answering within \(after.secondsText) (the overall timeout)"
        case .hostNotFound(let host): "no address found for \(host) (offline, or no such host)"
        case .connectionRefused(let host): "\(host) refused the connection"
        case .undecodableBody(let host): "\(host) sent a compressed body that could not be decoded"
        case .closedBeforeAnswering(let host): "\(host) closed the connection without answering"
        case .tooLarge(let limit): "the response is larger than \(limit) bytes"
        case .refusedBody(let host, let reason): "\(host)'s answer was refused: \(reason)"
        case .failed(let host, let reason): "\(host): \(reason)"
        }
    }
}

extension HTTPTransferError {
    /// This error, or the overall timeout when this one names a shorter wait (connect or
    /// first byte) that ran out after the overall deadline had already passed.
    ///
    /// On a busy machine the timer of the overall deadline can be served after a read timer
    /// that was due later; the operation still ran out of its overall time first, and the
    /// message should say so rather than blame a silence limit it never reached in time.
    func blamingTheOverallTimeout(after elapsed: Duration, of deadlines: HTTPDeadlines, host: String) -> HTTPTransferError {
        guard elapsed >= deadlines.total else { return self }
        switch self {
        case .connectTimedOut, .serverSilent: return .totalDeadlineExceeded(host: host, after: deadlines.total)
        default: return self
        }
    }
}
