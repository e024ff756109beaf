/// The ordered children of a relationship, loaded or not: always their uniqueIDs, and the
/// children themselves when the relationship was loaded eagerly.
///
/// Declare a relationship property as `QSRelated` when the relationship is (or may be) loaded
/// lazily, so that a parent does not hold its whole subtree:
/// ```swift
/// final class Podcast: QSUpdatableObject {
///     var episodes: QSRelated<Episode>
///     init(row: QSRow) throws { …; episodes = try row.related("episodes") }
///     func encode(to row: inout QSRowEncoder) { …; row.setRelated("episodes", episodes) }
/// }
/// let onScreen = try await store.fetchChildren(podcast.episodes)   // one statement at most
/// ```
/// Saving the parent stores the order of ``ids``. It also saves the children it holds: all of
/// them when loaded, otherwise only the ones added with ``insert(_:at:)`` or ``append(_:)``.
public struct QSRelated<Child: QSDataObject> {
    /// The children's uniqueIDs, in order.
    @inlinable public var ids: [Child.UniqueID] { storedIDs }
    /// The children in order when the relationship was loaded eagerly; nil when it holds IDs only.
    @inlinable public var children: [Child]? { storedChildren }

    // The changes below are inlined into the app, where they run specialised for its types: in
    // the framework they are generic, and inserting one child into a list of 1,000 moved every
    // ID through the ID type's value witnesses. So what they change is reachable from there.
    @usableFromInline var storedIDs: [Child.UniqueID]
    @usableFromInline var storedChildren: [Child]?
    /// Children added while only IDs were held; they are saved with the parent.
    @usableFromInline var added: [Child] = []
    /// Whether `storedIDs` is known to hold no ID twice, so that a save need not look for repeats
    /// (on a parent of 1,000 children, a hash of each, more than the rest of its encoding). True
    /// for a list read from the store, whose lookup table has one row per parent and child; kept
    /// by the changes below while they can tell cheaply that they add no repeat.
    @usableFromInline var idsAreDistinct = false

    /// The longest list an insert looks through for the child it adds, to keep `idsAreDistinct`;
    /// past it, the save looks for repeats instead (once, rather than once per insert).
    @inlinable static var longestListSearched: Int { 4_096 }

    /// Loaded children.
    @inlinable public init(_ children: [Child]) {
        self.storedIDs = children.map { $0.uniqueID }
        self.storedChildren = children
    }

    /// Children known by uniqueID only.
    @inlinable public init(ids: [Child.UniqueID]) {
        self.storedIDs = ids
        self.storedChildren = nil
    }

    /// Children read from the store: no ID comes twice.
    init(readChildren children: [Child]) {
        self.init(children)
        idsAreDistinct = true
    }

    /// Children read from the store by uniqueID only: no ID comes twice.
    init(readIDs ids: [Child.UniqueID]) {
        self.init(ids: ids)
        idsAreDistinct = true
    }

    /// Whether the children themselves are held, not only their IDs.
    @inlinable public var isLoaded: Bool { storedChildren != nil }

    /// The number of children.
    @inlinable public var count: Int { storedIDs.count }

    /// Inserts `child` at `index` (0…count).
    @inlinable public mutating func insert(_ child: Child, at index: Int) {
        if idsAreDistinct {
            idsAreDistinct = storedIDs.count <= Self.longestListSearched && !storedIDs.contains(child.uniqueID)
        }
        storedIDs.insert(child.uniqueID, at: index)
        if storedChildren != nil {
            storedChildren?.insert(child, at: index)
        } else {
            added.append(child)
        }
    }

    /// Adds `child` at the end.
    @inlinable public mutating func append(_ child: Child) {
        insert(child, at: storedIDs.count)
    }

    /// Removes the child at `index`. The child itself stays in the database.
    @inlinable public mutating func remove(at index: Int) {
        let id = storedIDs.remove(at: index)
        storedChildren?.remove(at: index)
        added.removeAll { $0.uniqueID == id }
    }

    /// Exchanges the children at two positions.
    @inlinable public mutating func swapAt(_ first: Int, _ second: Int) {
        storedIDs.swapAt(first, second)
        storedChildren?.swapAt(first, second)
    }
}

extension QSRelated: Sendable where Child: Sendable {}

/// Equal when they hold the same IDs in the same order, and the same children (loaded or added).
extension QSRelated: Equatable where Child: Equatable {
    @inlinable public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storedIDs == rhs.storedIDs && lhs.storedChildren == rhs.storedChildren && lhs.added == rhs.added
    }
}
