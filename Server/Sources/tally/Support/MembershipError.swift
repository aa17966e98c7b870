/// Why `tally user grant`, `tally user revoke` or `tally app create --owner` changed nothing:
/// a user, app or role they name does not exist.
struct MembershipError: Error, CustomStringConvertible {
    let description: String
}
