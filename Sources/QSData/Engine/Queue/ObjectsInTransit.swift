/// Model instances (or a large save's encoding state) moving between the main actor and the
/// database queue, or from one main-actor turn to the next.
///
/// Model objects are not `Sendable`: the app uses them on the main actor. The queue creates
/// them and never touches them again once handed over (cached ones it only retains), so moving
/// them across is safe; this box says so to the compiler in one place.
struct ObjectsInTransit<Value>: @unchecked Sendable {
    let value: Value
}
