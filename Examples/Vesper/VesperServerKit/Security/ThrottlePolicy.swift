/// One throttled counter: a name and how many events it allows in a sliding minute.
struct ThrottleKey: Hashable, Sendable {
    var name: String
    var limit: Int
}

/// Which counters each endpoint checks and feeds, so that an attacker can slow down only their
/// own attempts.
///
/// - Login failures count per username *and* client address together: guessing a password
///   from one address throttles that address's attempts on that account, never the real user
///   logging in from elsewhere. An address also has a wider budget over all usernames (ten
///   times the per-account one) against spraying many accounts — wide enough that other users
///   behind the same address are not blocked by one person's typos. A correct password clears
///   its pair's failures.
/// - Account creation (a bcrypt hash each) counts every attempt per address.
/// - Password-reset requests count per username *and* client address together, like logins,
///   so that requests from elsewhere can't use up the budget of the account's owner; an
///   address also has three times that budget over all usernames, which bounds how many reset
///   links one address can make (each is a stored row and, with mail, a message).
/// - Wrong reset-link tokens count per address.
enum ThrottlePolicy {
    static func login(username: String, address: String, perMinute limit: Int) -> [ThrottleKey] {
        [ThrottleKey(name: "login:\(address):\(username)", limit: limit),
         ThrottleKey(name: "login-address:\(address)", limit: limit * 10)]
    }

    static func createAccount(address: String, perMinute limit: Int) -> [ThrottleKey] {
        [ThrottleKey(name: "create-address:\(address)", limit: limit)]
    }

    static func passwordReset(username: String, address: String, perMinute limit: Int) -> [ThrottleKey] {
        [ThrottleKey(name: "reset:\(address):\(username)", limit: limit),
         ThrottleKey(name: "reset-address:\(address)", limit: limit * 3)]
    }

    static func resetToken(address: String, perMinute limit: Int) -> [ThrottleKey] {
        [ThrottleKey(name: "reset-token-address:\(address)", limit: limit)]
    }
}
