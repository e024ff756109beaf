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
    public private(set) var ids: [Child.UniqueID]
    /// The children in order when the relationship was loaded eagerly; nil when it holds IDs only.
    public private(set) var children: [Child]?
    /// Children added while only IDs were held; they are saved with the parent.
    @usableFromInline private(set) var added: [Child] = []

    /// Loaded children.
    public init(_ children: [Child]) {
        self.ids = children.map { $0.uniqueID }
        self.children = children
    }

    /// Children known by uniqueID only.
    public init(ids: [Child.UniqueID]) {
        self.ids = ids
        self.children = nil
    }

    /// Whether the children themselves are held, not only their IDs.
    public var isLoaded: Bool { children != nil }

    /// The number of children.
    public var count: Int { ids.count }

    /// Inserts `child` at `index` (0…count).
    public mutating func insert(_ child: Child, at index: Int) {
        ids.insert(child.uniqueID, at: index)
        if children != nil {
            children?.insert(child, at: index)
        } else {
            added.append(child)
        }
    }

    /// Adds `child` at the end.
    public mutating func append(_ child: Child) {
        insert(child, at: ids.count)
    }

    /// Removes the child at `index`. The child itself stays in the database.
    public mutating func remove(at index: Int) {
        let id = ids.remove(at: index)
        children?.remove(at: index)
        added.removeAll { $0.uniqueID == id }
    }

    /// Exchanges the children at two positions.
    public mutating func swapAt(_ first: Int, _ second: Int) {
        ids.swapAt(first, second)
        children?.swapAt(first, second)
    }
}

extension QSRelated: Sendable where Child: Sendable {}

/// Equal when they hold the same IDs in the same order, and the same children (loaded or added).
extension QSRelated: Equatable where Child: Equatable {}
