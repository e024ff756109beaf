/// The children a parent was saved with, kept typed until the store encodes them.
@usableFromInline
protocol RelatedChildren {
    var childTypeName: String { get }
    /// The children's uniqueIDs in order: what the lookup rows store.
    var childIDs: ChildIDs { get }
    /// Whether `childIDs` is known to name no child twice; false when it may.
    var childIDsAreDistinct: Bool { get }
    /// The same children as the lookup a row reads them from.
    func asLookup(parentID: QSAnyID) -> ChildrenByParent
    /// The children without those in `ids`, in the same order; nil when none of them is listed.
    func removing(_ ids: Set<QSAnyID>) -> (any RelatedChildren)?
    /// The children to save as `type`, or nil when they are of another type.
    func children<Wanted: QSDataObject>(as type: Wanted.Type) -> [Wanted]?
}

/// Made in the app's `encode(to:)` (the encoder's `setRelated` is inlinable), where the child
/// type is known at compile time: the IDs are listed there, by specialised code. Listed later,
/// in the store's generic code, each list cost a run-time look-up of generic type metadata.
@usableFromInline
struct RelatedChildrenOf<Child: QSDataObject>: RelatedChildren {
    /// The children to save with the parent.
    @usableFromInline let children: [Child]
    @usableFromInline let childIDs: ChildIDs
    @usableFromInline let childIDsAreDistinct: Bool
    /// True for a relationship held as IDs only: `children` are then just the ones to save.
    @usableFromInline let holdsIDsOnly: Bool

    @inlinable
    init(children: [Child], areDistinct: Bool = false) {
        self.init(children: children, childIDs: ChildIDs(children.map(\.uniqueID)), areDistinct: areDistinct, holdsIDsOnly: false)
    }

    @inlinable
    init(_ related: QSRelated<Child>) {
        if let loaded = related.children {
            self.init(children: loaded, areDistinct: related.idsAreDistinct)
        } else {
            self.init(children: related.added, childIDs: ChildIDs(related.ids), areDistinct: related.idsAreDistinct, holdsIDsOnly: true)
        }
    }

    @usableFromInline
    init(children: [Child], childIDs: ChildIDs, areDistinct: Bool, holdsIDsOnly: Bool) {
        self.children = children
        self.childIDs = childIDs
        self.childIDsAreDistinct = areDistinct
        self.holdsIDsOnly = holdsIDsOnly
    }

    @usableFromInline var childTypeName: String { Child.modelName }

    @usableFromInline func asLookup(parentID: QSAnyID) -> ChildrenByParent {
        if holdsIDsOnly { return ChildIDsByParent(parentID: parentID, ids: childIDs) }
        return ChildrenByParentOf<Child>(parentID: parentID, children: children)
    }

    @usableFromInline func children<Wanted: QSDataObject>(as type: Wanted.Type) -> [Wanted]? {
        guard Child.self == Wanted.self else { return nil }
        // The same type, so the array is already what is wanted: reinterpreting it costs nothing,
        // where a cast would look up the generic type's metadata at run time on every call.
        return unsafeBitCast(children, to: [Wanted].self)
    }

    @usableFromInline func removing(_ ids: Set<QSAnyID>) -> (any RelatedChildren)? {
        let kept = children.filter { !ids.contains($0.uniqueID.anyID) }
        // Fewer children of a list that named none twice still name none twice.
        return kept.count == children.count ? nil : RelatedChildrenOf(children: kept, areDistinct: childIDsAreDistinct)
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

/// Children loaded eagerly: each distinct child made once, and for each lookup row, in the rows'
/// order, the position of its child (nil where a lookup row names a child that no longer exists).
///
/// The rows are matched to their children here, in inlinable code compiled for the child type:
/// in the store's generic code, listing a child per row looked up its type's metadata each time.
@usableFromInline
final class ChildrenByParentOf<Child: QSDataObject>: ChildrenByParent {
    @usableFromInline let children: [Child?]
    /// Per lookup row, the position in `children` of its child.
    @usableFromInline let positionOfRow: [Int]

    init(runs: ParentRuns, children: [Child?], positionOfRow: [Int]) {
        self.children = children
        self.positionOfRow = positionOfRow
        super.init(runs: runs)
    }

    convenience init(parentID: QSAnyID, children: [Child]) {
        self.init(runs: ParentRuns(parent: parentID, range: children.indices), children: children, positionOfRow: Array(children.indices))
    }

    @inlinable
    func children(of parentID: QSAnyID) -> [Child] {
        guard let range = runs.range(of: parentID, cursor: &cursor) else { return [] }
        var result: [Child] = []
        result.reserveCapacity(range.count)
        for row in range {
            if let child = children[positionOfRow[row]] { result.append(child) }
        }
        return result
    }
}

/// A relationship loaded lazily: the children's uniqueIDs only.
@usableFromInline
final class ChildIDsByParent: ChildrenByParent {
    let ids: ChildIDs

    init(_ rows: LookupRows) {
        ids = rows.childIDs
        super.init(runs: rows.runs)
    }

    init(parentID: QSAnyID, ids: ChildIDs) {
        self.ids = ids
        super.init(runs: ParentRuns(parent: parentID, range: 0..<ids.count))
    }

    func ids(of parentID: QSAnyID) -> ChildIDs {
        guard let range = runs.range(of: parentID, cursor: &cursor) else { return .empty }
        return ids.slice(range)
    }
}
