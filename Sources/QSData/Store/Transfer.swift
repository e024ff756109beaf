/// Carries instances made on the database queue to the main actor.
///
/// Model objects are not `Sendable`: the app uses them on the main actor. The queue creates
/// them and never touches them again once handed over (cached ones it only retains), so moving
/// them across is safe; this box says so to the compiler in one place.
struct Transfer<Value>: @unchecked Sendable {
    let value: Value
}
