/// The children a parent was saved with, kept typed until the store encodes them.
protocol RelatedChildren {
    var childTypeName: String { get }
    /// The children's uniqueIDs in order: what the lookup rows store.
    var childIDs: [QSAnyID] { get }
    /// The same children as the lookup a row reads them from.
    func asLookup(parentID: QSAnyID) -> ChildrenByParent
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

    func asLookup(parentID: QSAnyID) -> ChildrenByParent {
        if orderedIDs != nil { return ChildIDsByParent(parentID: parentID, ids: childIDs) }
        return ChildrenByParentOf<Child>(parentID: parentID, children: children)
    }

    func removing(_ ids: Set<QSAnyID>) -> (any RelatedChildren)? {
        let kept = children.filter { !ids.contains($0.uniqueID.anyID) }
        return kept.count == children.count ? nil : RelatedChildrenOf(children: kept)
    }
}

/// The children of a relationship for many parents, as fetched: what `QSRow.related(_:)` reads.
/// A class, so that a row finds its kind with a cheap class cast. Reading children is inlinable,
/// so that it is compiled for each model type rather than run through unspecialised generics.
///
/// Rows ask for their children in the order the parents are read, mostly the order the lookup
/// rows came in, so each parent's run is found by a cursor (see ``ParentRuns``).
@usableFromInline
class ChildrenByParent {
    /// Where each parent's children lie in the flat list of the subclass.
    @usableFromInline let runs: ParentRuns
    /// This reader's position in `runs`.
    @usableFromInline var cursor = 0

    init(runs: ParentRuns) {
        self.runs = runs
    }
}

/// Children loaded eagerly: each distinct child made once, listed flat in the lookup rows' order
/// (nil where a lookup row names a child that no longer exists).
@usableFromInline
final class ChildrenByParentOf<Child: QSDataObject>: ChildrenByParent {
    @usableFromInline let children: [Child?]

    init(runs: ParentRuns, children: [Child?]) {
        self.children = children
        super.init(runs: runs)
    }

    convenience init(parentID: QSAnyID, children: [Child]) {
        self.init(runs: ParentRuns(parent: parentID, range: children.indices), children: children)
    }

    @inlinable
    func children(of parentID: QSAnyID) -> [Child] {
        guard let range = runs.range(of: parentID, cursor: &cursor) else { return [] }
        var result: [Child] = []
        result.reserveCapacity(range.count)
        for index in range {
            if let child = children[index] { result.append(child) }
        }
        return result
    }
}

/// A relationship loaded lazily: the children's uniqueIDs only.
@usableFromInline
final class ChildIDsByParent: ChildrenByParent {
    let ids: [QSAnyID]

    init(_ rows: LookupRows) {
        ids = rows.childIDs
        super.init(runs: rows.runs)
    }

    init(parentID: QSAnyID, ids: [QSAnyID]) {
        self.ids = ids
        super.init(runs: ParentRuns(parent: parentID, range: ids.indices))
    }

    func ids(of parentID: QSAnyID) -> [QSAnyID] {
        guard let range = runs.range(of: parentID, cursor: &cursor) else { return [] }
        return Array(ids[range])
    }
}
