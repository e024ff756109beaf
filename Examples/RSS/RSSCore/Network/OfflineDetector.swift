/// Recognises, during one bulk download, that host names can't be looked up at all (the machine
/// is offline, or no name server answers), so that the sources still waiting fail at once
/// instead of each waiting for a lookup of its own to fail.
///
/// The rule: **the first ``threshold`` downloads of the run all failed their host-name lookup**.
/// One name found (whatever came after: an answer, a refused connection, a timeout) shows that
/// lookups work, and from then on every source is tried. Dead domains in a subscription list
/// fail their lookups too, but quickly and among successes, so a working network never meets the
/// rule unless nearly the whole list is dead; a source skipped by it says why, and running the
/// import again tries it.
///
/// Offline, each lookup can take seconds (a name server that never answers is asked again
/// after a timeout), and a list of 200 feeds would spend half a minute learning, one host at a
/// time, what the first few lookups already said.
struct OfflineDetector {
    /// Lookups that must fail, with none found before them.
    let threshold: Int
    private var lookupsFailed = 0
    private var nameFound = false

    /// Eight: more than a subscription list's first few dead domains, few enough that an offline
    /// import of hundreds of feeds ends within the lookups already under way.
    static let standardThreshold = 8

    init(threshold: Int = Self.standardThreshold) {
        self.threshold = max(1, threshold)
    }

    /// Counts a finished download: whether its host name had no address.
    mutating func record(lookupFailed: Bool) {
        if lookupFailed {
            lookupsFailed += 1
        } else {
            nameFound = true
        }
    }

    /// Whether the downloads still to start should fail without being tried.
    var seemsOffline: Bool {
        !nameFound && lookupsFailed >= threshold
    }

    /// Why a source was not tried, for its failure.
    var reason: String {
        "not tried: the first \(lookupsFailed) host names looked up had no address; this machine seems to be offline"
    }
}
