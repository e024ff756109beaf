import NIOCore
import NIOHTTPTypes

/// Closes a connection whose next request head does not arrive in time.
///
/// Armed when the connection opens (with the request-head timeout) and again each time a
/// response ends (with the idle timeout, so a kept-alive connection that sends nothing more
/// is closed too); disarmed by each request head. It sits after HTTP decoding, so bytes that
/// trickle in without completing a head — a half-open or slowloris connection — never
/// disarm it.
final class RequestHeadDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private var deadline: Scheduled<Void>?
    private var requestsInProgress = 0

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context, after: limits.requestHeadTimeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context, after: limits.requestHeadTimeout)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            requestsInProgress += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            requestsInProgress -= 1
            if requestsInProgress == 0 { arm(context, after: limits.idleTimeout) }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext, after timeout: Duration) {
        guard deadline == nil else { return }
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: .nanoseconds(timeout.wholeNanoseconds)) {
            channel.close(promise: nil)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
