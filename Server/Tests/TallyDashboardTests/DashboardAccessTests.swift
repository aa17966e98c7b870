import Foundation
import TallyStore
import Testing

@testable import TallyDashboard

@Suite struct DashboardAccessTests {
    let store: EventStore
    let access: DashboardAccess

    init() throws {
        store = try EventStore(path: FileManager.default.temporaryDirectory.appendingPathComponent("tally-access-\(UUID()).sqlite").path)
        access = DashboardAccess(store: store, passwordCost: 4)  // bcrypt's lowest cost keeps tests fast
    }

    @Test func aUserSignsInWithTheirPasswordAndTheSessionIsFoundByItsToken() async throws {
        try await access.createUser(name: "ana", password: "correct horse")
        let stored = try #require(try await store.accounts.account(named: "ana"))
        #expect(stored.passwordHash.hasPrefix("$2"), "bcrypt")
        #expect(!stored.passwordHash.contains("correct horse"))

        let signedIn = try await access.signIn(name: "ana", password: "correct horse", from: "127.0.0.1")
        #expect(try await access.session(token: signedIn.token)?.user.name == "ana")
        #expect(try await access.session(token: signedIn.token + "x") == nil)
        try await access.signOut(token: signedIn.token)
        #expect(try await access.session(token: signedIn.token) == nil)
    }

    /// A wrong password and an unknown name get the same answer, so names cannot be probed.
    @Test func wrongPasswordsAndUnknownNamesAreOneError() async throws {
        try await access.createUser(name: "ana", password: "correct horse")
        await #expect(throws: SignInError.wrongNameOrPassword) { try await access.signIn(name: "ana", password: "wrong", from: "a") }
        await #expect(throws: SignInError.wrongNameOrPassword) { try await access.signIn(name: "bob", password: "wrong", from: "b") }
    }

    @Test func shortPasswordsAreRefused() async throws {
        await #expect(throws: PasswordTooShort.self) { try await access.createUser(name: "ana", password: "1234567") }
    }

    /// After five failures an address must wait, and so must the name from every browser it
    /// has not signed in with; a browser that signed in as the user before still signs in.
    @Test func failedSignInsLockOutTheAddressAndUnknownBrowsersButNotTheUsersOwn() async throws {
        try await access.createUser(name: "ana", password: "correct horse")
        let known = try await access.signIn(name: "ana", password: "correct horse", from: "10.0.0.9").device
        for _ in 0..<SignInThrottle.limit {
            await #expect(throws: SignInError.wrongNameOrPassword) { try await access.signIn(name: "ana", password: "guess", from: "10.0.0.1") }
        }
        await #expect { try await access.signIn(name: "ana", password: "correct horse", from: "10.0.0.1") } throws: { error in
            if case .tooManyAttempts(let wait) = error as? SignInError { wait > 0 } else { false }
        }
        await #expect { try await access.signIn(name: "ana", password: "correct horse", from: "10.0.0.2") } throws: { error in
            if case .tooManyAttempts = error as? SignInError { true } else { false }
        }
        // The user's own browser, from the attacker's address even, is not held up.
        _ = try await access.signIn(name: "ana", password: "correct horse", from: "10.0.0.1", device: known)
        // Another name from another address is not held up either.
        try await access.createUser(name: "bob", password: "battery staple")
        _ = try await access.signIn(name: "bob", password: "battery staple", from: "10.0.0.3")
    }

    /// Thirty guesses sent together are counted as they arrive, not when bcrypt has checked
    /// them: at most five are checked, and meanwhile the user signs in from their own browser.
    @Test func concurrentGuessesAreCountedWhileInFlight() async throws {
        let access = DashboardAccess(store: store, passwordCost: 10)  // ~60 ms a check, so the guesses overlap
        try await access.createUser(name: "ana", password: "correct horse")
        let known = try await access.signIn(name: "ana", password: "correct horse", from: "10.0.0.9").device
        let outcomes = await withTaskGroup(of: String.self) { group in
            for guess in 0..<30 {
                group.addTask {
                    do {
                        _ = try await access.signIn(name: "ana", password: "guess \(guess)", from: "203.0.113.5")
                        return "signed in"
                    } catch SignInError.wrongNameOrPassword {
                        return "checked"
                    } catch {
                        return "refused"
                    }
                }
            }
            group.addTask {
                (try? await access.signIn(name: "ana", password: "correct horse", from: "198.51.100.7", device: known)) != nil
                    ? "user" : "user refused"
            }
            return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect((outcomes["checked"] ?? 0) <= SignInThrottle.limit)
        #expect((outcomes["checked"] ?? 0) + (outcomes["refused"] ?? 0) == 30)
        #expect(outcomes["user"] == 1)
    }

    /// An attacker who signs in with an account of their own does not wipe the failures of
    /// the names they guessed from the same address.
    @Test func aSuccessClearsOnlyItsOwnNamesFailures() async throws {
        try await access.createUser(name: "mallory", password: "mallory's own")
        for _ in 0..<SignInThrottle.limit - 1 {
            await #expect(throws: SignInError.wrongNameOrPassword) { try await access.signIn(name: "ana", password: "guess", from: "10.0.0.1") }
        }
        _ = try await access.signIn(name: "mallory", password: "mallory's own", from: "10.0.0.1")
        await #expect(throws: SignInError.wrongNameOrPassword) { try await access.signIn(name: "carol", password: "guess", from: "10.0.0.1") }
        await #expect { try await access.signIn(name: "dave", password: "guess", from: "10.0.0.1") } throws: { error in
            if case .tooManyAttempts = error as? SignInError { true } else { false }
        }
    }

    /// A device cookie proves a past sign-in of one name, with the password the user had then.
    @Test func deviceCookiesAreBoundToTheNameAndThePassword() throws {
        let hash = "$2b$12$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012"
        let cookie = DeviceCookie(name: "ana", passwordHash: hash)
        #expect(DeviceCookie(verifying: cookie.value, name: "ana", passwordHash: hash) == cookie)
        #expect(DeviceCookie(verifying: cookie.value, name: "bob", passwordHash: hash) == nil)
        #expect(DeviceCookie(verifying: cookie.value, name: "ana", passwordHash: hash + "x") == nil)
        let forged = cookie.nonce + "." + String(repeating: "A", count: 43)
        #expect(DeviceCookie(verifying: forged, name: "ana", passwordHash: hash) == nil)
        for hostile in ["", ".", "a.b.c", String(repeating: "x", count: 10_000)] {
            #expect(DeviceCookie(verifying: hostile, name: "ana", passwordHash: hash) == nil)
        }
    }

    /// Guessing from ever new addresses and names cannot grow the table without bound.
    @Test func theThrottleStaysBounded() {
        let throttle = SignInThrottle()
        let start = Date()
        var largest = 0
        for round in 0..<100_000 {
            let now = start.addingTimeInterval(Double(round) / 100)
            if case .success(let attempt) = throttle.begin([.address("\(round)"), .untrusted(name: "n\(round)")], name: "n\(round)", at: now) {
                throttle.finish(attempt, succeeded: false, at: now)
            }
            largest = max(largest, throttle.count)
        }
        #expect(largest <= SignInThrottle.capacity + 2)
    }
}
