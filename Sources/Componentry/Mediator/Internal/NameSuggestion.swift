/// "Did you mean": the known name closest to a mistyped one.
enum NameSuggestion {
    /// The candidate closest to `name` by edit distance, ignoring case, if one is within a
    /// third of `name`'s length (at least two edits); the first in sorted order on a tie.
    static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased())
        let limit = max(2, typed.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for j in b.indices {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
