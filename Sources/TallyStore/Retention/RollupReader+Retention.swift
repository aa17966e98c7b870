extension RollupReader {
    /// For each window between consecutive `starts` (window `i` is `starts[i]..<starts[i + 1]`),
    /// the users whose first event ever is in it, and how many of them have an event in each
    /// later window.
    ///
    /// Cohorts come from `app_user.first_seen`; activity from one pass over the `user_day`
    /// rows of the windows, marking each cohort member's later active windows in a bitmap.
    func retention(between starts: [Int64]) throws -> [(size: Int, returning: [Int])] {
        let windows = starts.count - 1
        var memberIndex: [Int64: Int] = [:]
        var cohortOfMember: [Int] = []
        try forEachFirstSeen(in: starts[0]..<starts[windows]) { user, firstSeen in
            let bucket = Bucket.floorDivide(firstSeen, Bucket.milliseconds)
            memberIndex[user] = cohortOfMember.count
            cohortOfMember.append(starts.partitioningIndex { $0 > bucket } - 1)
        }

        let words = (windows + 63) / 64
        var active = [UInt64](repeating: 0, count: cohortOfMember.count * words)
        try forEachActiveWindow(between: starts) { user, window in
            guard let member = memberIndex[user], window > cohortOfMember[member] else { return }
            active[member * words + window / 64] |= 1 << UInt64(window % 64)
        }

        var cohorts = (0..<windows).map { (size: 0, returning: [Int](repeating: 0, count: windows - 1 - $0)) }
        for (member, cohort) in cohortOfMember.enumerated() {
            cohorts[cohort].size += 1
            for word in 0..<words {
                var bits = active[member * words + word]
                while bits != 0 {
                    cohorts[cohort].returning[word * 64 + bits.trailingZeroBitCount - cohort - 1] += 1
                    bits &= bits - 1
                }
            }
        }
        return cohorts
    }
}

extension RollupReader {
    /// For each of `cohorts`, the users whose first event ever is in it, and how many of them
    /// have an event in `later`, which starts after every cohort ends. Cohorts are equal or
    /// disjoint; an equal one is read once.
    func returning(to later: Range<Int64>, from cohorts: [Range<Int64>]) throws -> [(firstSeen: Int, returned: Int)] {
        /// The first cohort with the range of cohort `index`.
        func canonical(_ index: Int) -> Int {
            cohorts.firstIndex(of: cohorts[index]) ?? index
        }
        var cohortOf: [Int64: Int] = [:]
        var counts = Array(repeating: (firstSeen: 0, returned: 0), count: cohorts.count)
        for index in cohorts.indices where canonical(index) == index {
            try forEachFirstSeen(in: cohorts[index]) { user, _ in
                cohortOf[user] = index
                counts[index].firstSeen += 1
            }
        }
        var returned = Set<Int64>()
        try forEachActiveWindow(between: [later.lowerBound, later.upperBound]) { user, _ in
            if let cohort = cohortOf[user], returned.insert(user).inserted { counts[cohort].returned += 1 }
        }
        return cohorts.indices.map { counts[canonical($0)] }
    }
}

extension Array {
    /// The index of the first element for which `isAfter` holds, in an array where it holds
    /// for a suffix (binary search); `endIndex` if it holds for none.
    fileprivate func partitioningIndex(where isAfter: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
