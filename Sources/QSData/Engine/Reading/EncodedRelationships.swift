/// The relationships one object set in `encode(to:)`, by position in the model's order (the
/// layout's `relationshipNames`), as the store reads them back: no dictionary per object.
struct EncodedRelationships {
    /// Per relationship, the children the object set. Empty until the first is set, so an object
    /// that sets none costs no allocation.
    private var byPosition: [SetChildren] = []

    /// One relationship's children, or nil where the object set none: a struct of its own rather
    /// than a bare optional, so that the array is copied and freed by code compiled for it instead
    /// of through `Optional`'s generic witnesses, once for every object a save encodes.
    private struct SetChildren {
        var children: (any RelatedChildren)?
    }

    /// True when the object set no relationship.
    var isEmpty: Bool { byPosition.isEmpty }

    /// The children set for the relationship at `position`, or nil.
    subscript(position: Int) -> (any RelatedChildren)? {
        position < byPosition.count ? byPosition[position].children : nil
    }

    /// Sets the children of the relationship at `position`, of a type that has `count`.
    mutating func set(_ children: (any RelatedChildren)?, at position: Int, of count: Int) {
        if byPosition.isEmpty {
            guard children != nil else { return }
            byPosition = Array(filledWith: SetChildren(), count: count)
        }
        byPosition[position].children = children
    }

    /// The children as a fetched row would hold them, for `parentID`: what `QSRow` reads.
    func asLookups(parentID: QSAnyID) -> [ChildrenByParent?] {
        byPosition.map { $0.children?.asLookup(parentID: parentID) }
    }
}
