/// The relationships one object set in `encode(to:)`, by position in the model's order (the
/// layout's `relationshipNames`), as the store reads them back: no dictionary per object.
struct EncodedRelationships {
    /// Per relationship, the children the object set, or nil where it set none. Empty until the
    /// first is set, so an object that sets none costs no allocation.
    private var byPosition: [(any RelatedChildren)?] = []

    /// True when the object set no relationship.
    var isEmpty: Bool { byPosition.isEmpty }

    /// The children set for the relationship at `position`, or nil.
    subscript(position: Int) -> (any RelatedChildren)? {
        position < byPosition.count ? byPosition[position] : nil
    }

    /// Sets the children of the relationship at `position`, of a type that has `count`.
    mutating func set(_ children: (any RelatedChildren)?, at position: Int, of count: Int) {
        if byPosition.isEmpty {
            guard children != nil else { return }
            byPosition = Array(filledWith: nil, count: count)
        }
        byPosition[position] = children
    }

    /// The children as a fetched row would hold them, for `parentID`: what `QSRow` reads.
    func asLookups(parentID: QSAnyID) -> [ChildrenByParent?] {
        byPosition.map { $0?.asLookup(parentID: parentID) }
    }
}
