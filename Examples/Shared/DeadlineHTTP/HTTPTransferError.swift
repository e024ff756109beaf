/// Why a network operation failed, with which deadline ran out. Each message reads as one line.
public enum HTTPTransferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection within the connect deadline.
    case connectTimedOut(host: String, after: Duration)
    /// The server was silent longer than the first-byte deadline.
    case serverSilent(host: String, after: Duration)
    /// The whole operation outlasted the total deadline (a server trickling its answer).
    case totalDeadlineExceeded(host: String, after: Duration)
    /// The response body is larger than allowed.
    case tooLarge(limit: Int)
    /// Nothing listens at the address.
    case connectionRefused(host: String)
    /// The server closed the connection before sending a response.
    case closedBeforeAnswering(host: String)
    /// Anything else: refused connection, unknown host, TLS failure, reset.
    case failed(host: String, reason: String)

    public var description: String {
        switch self {
        case .connectTimedOut(let host, let after):
            "could not connect to \(host) within \(after.secondsText) (the connect timeout)"
        case .serverSilent(let host, let after):
            "\(host) sent nothing for \(after.secondsText) (the first-byte timeout)"
        case .totalDeadlineExceeded(let host, let after):
            "\(host) did not finish answering within \(after.secondsText) (the overall timeout)"
        case .connectionRefused(let host): "\(host) refused the connection"
        case .closedBeforeAnswering(let host): "\(host) closed the connection without answering"
        case .tooLarge(let limit): "the response is larger than \(limit) bytes"
        case .failed(let host, let reason): "\(host): \(reason)"
        }
    }
}
