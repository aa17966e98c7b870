import Foundation

extension HealthCounts {
    /// Adds the purchase events of `app` that carry no purchase, per reason, under the bucket
    /// of `now`: they arrive now.
    mutating func add(purchaseProblems: [Purchase.Problem: Int], app: AppID, now: Date = Date()) {
        let bucket = Bucket.containing(milliseconds: now.unixMilliseconds)
        for (problem, count) in purchaseProblems {
            add(count, Key(app: app.production, bucket: bucket, outcome: .ignoredPurchase, reason: problem.rawValue))
        }
    }
}
