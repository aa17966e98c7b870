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
        let stored = try #require(try await store.user(named: "ana"))
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

    /// After five failures, an address — and a name, from any address — must wait.
    @Test func failedSignInsAreRateLimitedByAddressAndByName() async throws {
        try await access.createUser(name: "ana", password: "correct horse")
        for _ in 0..<FailedSignIns.limit {
            await #expect(throws: SignInError.wrongNameOrPassword) { try await access.signIn(name: "ana", password: "guess", from: "10.0.0.1") }
        }
        await #expect { try await access.signIn(name: "ana", password: "correct horse", from: "10.0.0.1") } throws: { error in
            if case .tooManyAttempts(let wait) = error as? SignInError { wait > 0 } else { false }
        }
        await #expect { try await access.signIn(name: "ana", password: "correct horse", from: "10.0.0.2") } throws: { error in
            if case .tooManyAttempts = error as? SignInError { true } else { false }
        }
        // Another name from another address is not held up.
        try await access.createUser(name: "bob", password: "battery staple")
        _ = try await access.signIn(name: "bob", password: "battery staple", from: "10.0.0.3")
    }

    /// Guessing from ever new addresses and names cannot grow the table without bound.
    @Test func theFailureTableStaysBounded() {
        let failures = FailedSignIns()
        let start = Date()
        var largest = 0
        for round in 0..<100_000 {
            failures.record(["address:\(round)", "user:\(round % 7)"], at: start.addingTimeInterval(Double(round) / 100))
            largest = max(largest, failures.count)
        }
        #expect(largest <= FailedSignIns.capacity + 2)
    }
}
