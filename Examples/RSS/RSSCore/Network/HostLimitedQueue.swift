/// Jobs waiting to run, handed out so that no more than ``DownloadLimits/total`` run at once and
/// no more than ``DownloadLimits/perHost`` for any one host. Jobs without a host (local files)
/// count only in the total.
struct HostLimitedQueue<Job> {
    private let limits: DownloadLimits
    private let host: (Job) -> String?
    private var waiting: [Job] = []
    private var running = 0
    private var runningPerHost: [String: Int] = [:]

    init(limits: DownloadLimits, host: @escaping (Job) -> String?) {
        self.limits = limits
        self.host = host
    }

    /// Whether no job waits.
    var isEmpty: Bool { waiting.isEmpty }

    mutating func append(_ job: Job) {
        waiting.append(job)
    }

    /// The first waiting job the limits let start now, counted as running; `nil` when none may.
    mutating func start() -> Job? {
        guard running < limits.total else { return nil }
        guard let index = waiting.firstIndex(where: { job in
            host(job).map { runningPerHost[$0, default: 0] < limits.perHost } ?? true
        }) else { return nil }
        let job = waiting.remove(at: index)
        running += 1
        if let host = host(job) { runningPerHost[host, default: 0] += 1 }
        return job
    }

    /// Counts a job started by ``start()`` as done.
    mutating func finish(_ job: Job) {
        running -= 1
        if let host = host(job) { runningPerHost[host, default: 1] -= 1 }
    }

    /// Takes every waiting job of `host` out of the queue.
    mutating func removeWaiting(host name: String) -> [Job] {
        let removed = waiting.filter { host($0) == name }
        waiting.removeAll { host($0) == name }
        return removed
    }
}
