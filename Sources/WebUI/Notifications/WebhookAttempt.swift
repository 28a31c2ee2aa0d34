/// What one attempt to deliver a notification to a webhook came to, and what follows.
/// Pure: the notifier gives the answer (or the failure) and the attempt's number.
///
/// - A 2xx answer: delivered.
/// - 408, 425, 429 and 5xx answers, and failures to connect or to be answered within
///   ``timeout``: tried again, up to ``attempts`` in all, after 1, 2, 4 and 8 s, or after
///   what the answer's `Retry-After` asks when that is longer (at most ``longestWait``).
/// - Any other answer (a 404, a 401 for a wrong token): given up at once: asking again
///   would be answered the same.
enum WebhookAttempt: Equatable {
    case delivered
    case retry(after: Duration, why: String)
    case failed(String)

    /// The most attempts for one notification.
    static let attempts = 5
    /// How long one attempt may take, from connecting to the answer's end.
    static let timeout: Duration = .seconds(10)
    /// The longest wait between two attempts a `Retry-After` is honoured for.
    static let longestWait: Duration = .seconds(60)

    /// What the `attempt`-th attempt (from 1) answered `status` (with `retryAfter` asked, if
    /// any) comes to.
    static func answered(status: Int, retryAfter: Duration?, attempt: Int) -> WebhookAttempt {
        if (200..<300).contains(status) { return .delivered }
        let why = "answered \(status)"
        guard [408, 425, 429].contains(status) || (500..<600).contains(status) else { return .failed(why) }
        return again(why, attempt: attempt, asked: retryAfter)
    }

    /// What the `attempt`-th attempt failing with `why` (no answer) comes to.
    static func failed(_ why: String, attempt: Int) -> WebhookAttempt {
        again(why, attempt: attempt, asked: nil)
    }

    private static func again(_ why: String, attempt: Int, asked: Duration?) -> WebhookAttempt {
        guard attempt < attempts else { return .failed("\(why), \(attempt) times") }
        let backoff = Duration.seconds(1 << min(max(attempt - 1, 0), 10))
        return .retry(after: max(backoff, min(asked ?? .zero, longestWait)), why: why)
    }
}
