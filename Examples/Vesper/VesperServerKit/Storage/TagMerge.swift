/// The server's tag merge rules (PROTOCOL.md, "Tags"), independent of storage.
enum TagMerge {
    struct Outcome: Equatable {
        /// Tags to insert or update, keyed by (userID, uniqueID).
        var writes: [SyncTag]
        /// Tags for the client: stored tags newer than its copy, then stored tags it lacks.
        var response: [SyncTag]
    }

    /// Merges `uploaded` (uniqueIDs already recomputed from names) with the user's `stored` tags.
    static func merge(uploaded: [SyncTag], stored: [SyncTag]) -> Outcome {
        // Coalesce the upload: for each uniqueID the later date wins (the first on a tie).
        var incomingByID: [String: SyncTag] = [:]
        var incomingOrder: [String] = []
        for tag in uploaded {
            if let seen = incomingByID[tag.uniqueID] {
                if tag.nameModificationDate > seen.nameModificationDate { incomingByID[tag.uniqueID] = tag }
            } else {
                incomingByID[tag.uniqueID] = tag
                incomingOrder.append(tag.uniqueID)
            }
        }
        let storedByID = Dictionary(stored.map { ($0.uniqueID, $0) }, uniquingKeysWith: { first, _ in first })

        var outcome = Outcome(writes: [], response: [])
        for uniqueID in incomingOrder {
            guard let incoming = incomingByID[uniqueID] else { continue }
            guard let existing = storedByID[uniqueID] else {
                outcome.writes.append(incoming)
                continue
            }
            if incoming.nameModificationDate < existing.nameModificationDate {
                outcome.response.append(existing)
            } else if incoming.nameModificationDate > existing.nameModificationDate {
                outcome.writes.append(incoming)
            }
        }
        for tag in stored where incomingByID[tag.uniqueID] == nil {
            outcome.response.append(tag)
        }
        return outcome
    }
}
