import NIOCore
import NIOHTTPTypes

/// A request body cut off because it arrived too slowly; the request is answered 408 and the
/// connection closed.
struct RequestBodyTooSlow: Error, Equatable {
    /// What was too slow, for the response and the log.
    let reason: String
}

/// Cuts off a request body that takes longer than the body timeout in all, or that keeps the
/// server waiting longer than the grace plus its bytes at the minimum rate.
///
/// Waiting counts only while the server asks for more of the body (an outbound `read` with no
/// bytes yet): while the request's handler is busy elsewhere and reads nothing, the client is
/// not to blame. A body that fails either limit gets ``RequestBodyTooSlow`` thrown to whoever
/// reads it, and the connection closes once the answer is written (or ten seconds later).
final class RequestBodyDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// One body as it arrives.
    private struct Progress {
        let started: NIODeadline
        var bytes = 0
        /// Time the server waited for bytes, not counting a wait still open.
        var waited = TimeAmount.zero
        /// When the server asked for more and has had nothing since.
        var waitingSince: NIODeadline?

        mutating func stopWaiting(at now: NIODeadline) {
            if let since = waitingSince {
                waited = waited + (now - since)
                waitingSince = nil
            }
        }
    }

    private let limits: ConnectionLimits
    private var progress: Progress?
    private var check: RepeatedTask?
    private var cutOff = false

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Nothing after a cut-off reaches the request's handler: the connection is closing.
        guard !cutOff else { return }
        switch unwrapInboundIn(data) {
        case .head:
            progress = Progress(started: .now())
            startChecking(context)
        case .body(let buffer):
            if var current = progress {
                current.stopWaiting(at: NIODeadline.now())
                current.bytes += buffer.readableBytes
                progress = current
            }
        case .end:
            stopChecking()
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        if var current = progress, current.waitingSince == nil {
            current.waitingSince = .now()
            progress = current
        }
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard cutOff, case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        // The answer to a cut-off request is the connection's last.
        let written = promise ?? context.eventLoop.makePromise()
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        context.write(data, promise: written)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopChecking()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopChecking()
    }

    private func startChecking(_ context: ChannelHandlerContext) {
        check?.cancel()
        let interval = TimeAmount.milliseconds(250)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        check = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            let (handler, context) = loopBound.value
            handler.checkProgress(context)
        }
    }

    private func stopChecking() {
        check?.cancel()
        check = nil
        progress = nil
    }

    private func checkProgress(_ context: ChannelHandlerContext) {
        guard let current = progress else { return }
        let now = NIODeadline.now()
        if now - current.started > .nanoseconds(limits.requestBodyTimeout.wholeNanoseconds) {
            cut(context, reason: "the request body took longer than \(limits.requestBodyTimeout.components.seconds) s")
            return
        }
        let waited = current.waited + (current.waitingSince.map { now - $0 } ?? .zero)
        let earned = Double(current.bytes) / Double(max(1, limits.minimumBodyBytesPerSecond))
        let allowed = TimeAmount.nanoseconds(limits.bodyRateGrace.wholeNanoseconds + Int64(earned * 1_000_000_000))
        if waited > allowed {
            cut(context, reason: "the request body arrived slower than \(limits.minimumBodyBytesPerSecond) bytes a second")
        }
    }

    private func cut(_ context: ChannelHandlerContext, reason: String) {
        stopChecking()
        cutOff = true
        context.fireErrorCaught(RequestBodyTooSlow(reason: reason))
        // A handler that never reads the body never answers: close without an answer then
        // (after a while, so that a busy server still gets to write its answer).
        let channel = context.channel
        context.eventLoop.scheduleTask(in: .seconds(10)) { channel.close(promise: nil) }
    }
}
