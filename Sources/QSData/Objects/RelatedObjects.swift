/// The children a parent was saved with, kept typed until the store encodes them.
protocol RelatedChildren {
    var childTypeName: String { get }
    var childIDs: [QSAnyID] { get }
    /// The same children as the lookup a row reads them from.
    func asLookup(parentID: QSAnyID) -> any ChildrenByParent
    /// The children without those in `ids`, in the same order; nil when none of them is listed.
    func removing(_ ids: Set<QSAnyID>) -> (any RelatedChildren)?
}

struct RelatedChildrenOf<Child: QSDataObject>: RelatedChildren {
    let children: [Child]

    var childTypeName: String { Child.modelName }
    // A closure, not the key path `\.uniqueID.anyID`: in this unspecialised generic context a
    // key path is instantiated at run time on every call, which dominated large saves.
    var childIDs: [QSAnyID] { children.map { $0.uniqueID.anyID } }

    func asLookup(parentID: QSAnyID) -> any ChildrenByParent {
        ChildrenByParentOf<Child>(childrenByParent: [parentID: children])
    }

    func removing(_ ids: Set<QSAnyID>) -> (any RelatedChildren)? {
        let kept = children.filter { !ids.contains($0.uniqueID.anyID) }
        return kept.count == children.count ? nil : RelatedChildrenOf(children: kept)
    }
}

/// The children of a relationship for many parents, as fetched: what `QSRow.related(_:)` reads.
protocol ChildrenByParent {}

struct ChildrenByParentOf<Child: QSDataObject>: ChildrenByParent {
    let childrenByParent: [QSAnyID: [Child]]

    func children(of parentID: QSAnyID) -> [Child] {
        childrenByParent[parentID] ?? []
    }
}
