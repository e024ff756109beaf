/// The children a parent was saved with, kept typed until the store encodes them.
protocol RelatedChildren {
    var childTypeName: String { get }
    /// The children's uniqueIDs in order: what the lookup rows store.
    var childIDs: [QSAnyID] { get }
    /// The same children as the lookup a row reads them from.
    func asLookup(parentID: QSAnyID) -> any ChildrenByParent
    /// The children without those in `ids`, in the same order; nil when none of them is listed.
    func removing(_ ids: Set<QSAnyID>) -> (any RelatedChildren)?
}

struct RelatedChildrenOf<Child: QSDataObject>: RelatedChildren {
    /// The children to save with the parent.
    let children: [Child]
    /// The order, when it is not the order of `children` (a relationship holding IDs only).
    private let orderedIDs: [Child.UniqueID]?

    init(children: [Child], orderedIDs: [Child.UniqueID]? = nil) {
        self.children = children
        self.orderedIDs = orderedIDs
    }

    init(_ related: QSRelated<Child>) {
        self.init(children: related.childrenToSave, orderedIDs: related.isLoaded ? nil : related.ids)
    }

    var childTypeName: String { Child.modelName }
    // Closures, not the key path `\.uniqueID.anyID`: in this unspecialised generic context a
    // key path is instantiated at run time on every call, which dominated large saves.
    var childIDs: [QSAnyID] {
        if let orderedIDs { return orderedIDs.map { $0.anyID } }
        return children.map { $0.uniqueID.anyID }
    }

    func asLookup(parentID: QSAnyID) -> any ChildrenByParent {
        if orderedIDs != nil { return ChildIDsByParent(idsByParent: [parentID: childIDs]) }
        return ChildrenByParentOf<Child>(childrenByParent: [parentID: children])
    }

    func removing(_ ids: Set<QSAnyID>) -> (any RelatedChildren)? {
        let kept = children.filter { !ids.contains($0.uniqueID.anyID) }
        return kept.count == children.count ? nil : RelatedChildrenOf(children: kept)
    }
}

/// The children of a relationship for many parents, as fetched: what `QSRow.related(_:)` reads.
protocol ChildrenByParent {}

/// Children loaded eagerly.
struct ChildrenByParentOf<Child: QSDataObject>: ChildrenByParent {
    let childrenByParent: [QSAnyID: [Child]]

    func children(of parentID: QSAnyID) -> [Child] {
        childrenByParent[parentID] ?? []
    }
}

/// A relationship loaded lazily: the children's uniqueIDs only.
struct ChildIDsByParent: ChildrenByParent {
    let idsByParent: [QSAnyID: [QSAnyID]]

    func ids(of parentID: QSAnyID) -> [QSAnyID] {
        idsByParent[parentID] ?? []
    }
}
