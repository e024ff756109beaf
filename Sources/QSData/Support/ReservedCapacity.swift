/// The capacity to reserve for lists of `count` elements about to get `added` more, or nil when
/// `capacity` already holds them: what they need, and at least twice their present size, as
/// appending would grow them. Reserving exactly what each of many small additions needs would
/// copy the lists once per addition.
func capacityToReserve(count: Int, adding added: Int, capacity: Int) -> Int? {
    let needed = count + added
    guard needed > capacity else { return nil }
    return max(needed, 2 * count)
}
