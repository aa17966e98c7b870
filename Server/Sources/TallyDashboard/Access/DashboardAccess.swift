import Crypto
import Dispatch
public import Foundation
import HummingbirdBcrypt
public import TallyStore

/// Who may see the dashboard: its users, their passwords (bcrypt hashes only) and their
/// sessions (stored in the database, so they survive a restart).
///
/// ```swift
/// let access = DashboardAccess(store: store)
/// try await access.createUser(name: "ana", password: "correct horse battery")
/// let signedIn = try await access.signIn(name: "ana", password: "correct horse battery", from: address)
/// // the session cookie carries signedIn.token; the store keeps only its SHA-256
/// let session = try await access.session(token: signedIn.token)
/// ```
public final class DashboardAccess: Sendable {
    /// A session's lifetime.
    public static let sessionLifetime: TimeInterval = 30 * 86_400
    /// The shortest password accepted.
    public static let minimumPasswordLength = 8

    private let store: EventStore
    private let cost: UInt8
    private let throttle = SignInThrottle()
    private let now: @Sendable () -> Date
    /// Checked against when the name is unknown, so that a wrong name takes as long as a wrong password.
    private let standIn: String

    /// Creates access over `store`; `passwordCost` is bcrypt's cost (tests use a low one).
    public init(store: EventStore, passwordCost: UInt8 = 12, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.cost = passwordCost
        self.now = now
        standIn = Bcrypt.hash(Self.generatePassword(), cost: passwordCost)
    }

    /// A new random password: 24 characters of base64url, 144 bits.
    public static func generatePassword() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<18).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64URL
    }

    /// Creates a user whose password is `password`; the store keeps only its bcrypt hash.
    ///
    /// - Throws: ``TallyStore/TallyStoreError`` for a taken or invalid name, or
    ///   `PasswordTooShort` for a password under ``minimumPasswordLength`` characters.
    @discardableResult
    public func createUser(name: String, password: String) async throws -> DashboardUser {
        guard password.count >= Self.minimumPasswordLength else { throw PasswordTooShort(minimum: Self.minimumPasswordLength) }
        let hash = await Self.offload { Bcrypt.hash(password, cost: self.cost) }
        return try await store.accounts.create(name: name, passwordHash: hash)
    }

    /// Signs `name` in with `password`, from the client `address`, and returns the new
    /// session, the token that names it (for the cookie; the store keeps its hash) and a
    /// device cookie for the browser.
    ///
    /// Attempts are limited by ``SignInThrottle``: a browser presenting a valid `device`
    /// cookie for `name` is counted on its own; any other is counted by its address and, with
    /// every other unknown browser, by the name. So guesses sent together are limited (each
    /// counts from the moment it arrives), and a stranger's failures lock the name out of
    /// unknown browsers only, never out of a browser the user signed in with before.
    ///
    /// - Throws: ``SignInError``, or a store error.
    public func signIn(name: String, password: String, from address: String, device: String? = nil) async throws -> SignedIn {
        let found = try await store.accounts.account(named: name)
        let known = device.flatMap { value in found.flatMap { DeviceCookie(verifying: value, name: name, passwordHash: $0.passwordHash) } }
        let keys: [SignInThrottle.Key] = known.map { [.device(nonce: $0.nonce)] } ?? [.address(address), .untrusted(name: name)]
        let attempt: SignInThrottle.Attempt
        switch throttle.begin(keys, name: name, at: now()) {
        case .success(let begun): attempt = begun
        case .failure(let wait): throw SignInError.tooManyAttempts(retryAfter: wait.seconds)
        }
        let hash = found?.passwordHash ?? standIn
        let matches = await Self.offload { Bcrypt.verify(password, hash: hash) }
        guard let found, matches else {
            throttle.finish(attempt, succeeded: false, at: now())
            throw SignInError.wrongNameOrPassword
        }
        throttle.finish(attempt, succeeded: true, at: now())
        let token = Self.generatePassword() + Self.generatePassword()
        let session = try await store.accounts.createSession(
            user: found.user.id, tokenHash: Self.hash(token), expiresAt: now().addingTimeInterval(Self.sessionLifetime))
        return SignedIn(token: token, session: session, device: DeviceCookie(name: name, passwordHash: found.passwordHash).value)
    }

    /// The live session whose token is `token`, or `nil`.
    public func session(token: String) async throws -> DashboardSession? {
        try await store.accounts.session(tokenHash: Self.hash(token), now: now())
    }

    /// Ends the session whose token is `token`.
    public func signOut(token: String) async throws {
        try await store.accounts.deleteSession(tokenHash: Self.hash(token))
    }

    /// What the store keeps of a session token: its SHA-256.
    static func hash(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }

    /// Runs bcrypt (a quarter of a second at cost 12) off the concurrency pool's threads.
    private static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}

/// A signed-in user: the session and the token that names it.
public struct SignedIn: Sendable {
    /// The secret for the session cookie.
    public let token: String
    /// The session.
    public let session: DashboardSession
    /// The value of the browser's device cookie: with it, the browser signs in as this user
    /// again even while strangers' failed guesses lock the name out of unknown browsers.
    public let device: String
}

/// A password under ``DashboardAccess/minimumPasswordLength`` characters.
public struct PasswordTooShort: Error, Hashable, Sendable, CustomStringConvertible {
    /// The shortest password accepted.
    public let minimum: Int

    public var description: String { "a password needs at least \(minimum) characters" }
}
