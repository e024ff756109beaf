import Foundation

/// Clock-skew correction (PROTOCOL.md, "Client clock"): the difference between the server's `Date` header and the
/// device clock, kept only when it is more than 120 seconds. Unlike the stock client there are
/// no hard-coded years; dates before 2014 or after 2100 are discarded as implausible.
public struct VSClockSkew: Sendable, Equatable {
    /// Server minus device, in seconds; 0 when within the tolerance.
    public private(set) var seconds: TimeInterval

    /// How far apart the clocks may be before correcting.
    public static let tolerance: TimeInterval = 120

    public init(seconds: TimeInterval = 0) {
        self.seconds = seconds
    }

    /// Takes the server's date from a response received at device time `deviceNow`.
    /// Returns whether the skew changed.
    @discardableResult
    public mutating func observe(serverDate: Date, deviceNow: Date) -> Bool {
        guard serverDate >= Self.plausibleRange.lowerBound, serverDate <= Self.plausibleRange.upperBound else { return false }
        let measured = serverDate.timeIntervalSince(deviceNow)
        let new = abs(measured) > Self.tolerance ? measured : 0
        guard new != seconds else { return false }
        seconds = new
        return true
    }

    /// The corrected time for a device time: used for every modification date a user change stamps.
    public func correctedNow(_ deviceNow: Date) -> Date {
        deviceNow.addingTimeInterval(seconds)
    }

    static let plausibleRange = VSSyncDate.date(milliseconds: 1_388_534_400_000)...VSSyncDate.date(milliseconds: 4_102_444_800_000)
}
