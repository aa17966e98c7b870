public import TallyHTTP
public import TallyStore

/// How a page runs its costly reads (its report, the funnel and paths counts, a user's
/// timeline and the user search): each waits its turn in the server's ``TallyHTTP/ReadAdmission``
/// as a read of the page's user, and the funnel and paths counts that several pages ask for
/// at once are read once (``SheetReads``).
///
/// A page made without one (``init()``) runs its reads at once, sharing them with no other page.
public struct PageReads: Sendable {
    /// Where the reads wait their turn, and as whose.
    public var admission: (reads: ReadAdmission, reader: ReadAdmission.Reader)?
    /// The sheet reads in flight, shared by the pages given the same.
    public var sheets: SheetReads
    /// The shortest time between two counts of an open funnel or paths sheet while new events
    /// arrive: the counts of a long range are costly, and events may arrive every tick.
    public var liveSheetInterval: Duration

    /// The reads of a page of `user` in `app` through `admission`, sharing `sheets`, counting
    /// a live sheet at most once per `liveSheetInterval`.
    public init(admission: ReadAdmission, user: DashboardUserID, app: AppID, sheets: SheetReads, liveSheetInterval: Duration) {
        self.admission = (admission, .user(user, in: app))
        self.sheets = sheets
        self.liveSheetInterval = liveSheetInterval
    }

    /// Reads run at once, shared with no other page, a live sheet counted at most once a second.
    public init() {
        sheets = SheetReads()
        liveSheetInterval = .seconds(1)
    }

    /// What `body` reads, once its turn comes.
    ///
    /// - Throws: ``TallyHTTP/ReadAdmission/Overloaded`` when the server is too busy, or what
    ///   `body` throws.
    func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let (reads, reader) = admission else { return try await body() }
        return try await reads.run(reader, body)
    }
}

/// The funnel and paths counts in flight, by app and page query (the sheet's included):
/// pages asking for the same counts while they are read share the one read.
public final class SheetReads: Sendable {
    /// What a sheet's counts are read for.
    struct Key: Hashable, Sendable {
        var app: AppID
        var query: PageQuery
    }

    let funnels = SharedReads<Key, Funnel>()
    let paths = SharedReads<Key, Paths>()

    /// None in flight.
    public init() {}
}

extension ReadAdmission.Reader {
    /// A read of `app` (its events from debug builds too) by the dashboard user `user`.
    static func user(_ user: DashboardUserID, in app: AppID) -> Self {
        Self(app: app.production.rawValue, holder: .user(user.rawValue))
    }
}
