/// How a table of instances (the main actor's ``InstanceTable``, the queue's ``KnownRows``) holds
/// one row's instance: weakly for a uniqued class, strongly for a permanent cache.
///
/// Each table is generic over it, so that an entry holds one word, not a weak and a strong
/// reference of which one is always empty: the weak tables hold nearly every row an app keeps.
///
/// An entry is read and changed only where it lies in its table: a copy of a weak reference costs
/// atomic operations on the instance's side table.
protocol HeldInstance {
    init()

    /// Whether a held instance can die (a weak table's, when the app lets it go): only then is
    /// the table swept for dead entries.
    static var canDie: Bool { get }

    /// Whether no instance is held any more (a weak table's instance the app let go).
    var isDead: Bool { get }

    /// The instance as the tables exchange it.
    var instance: Instance? { get }

    /// The instance itself: the object, or a permanently cached value unboxed.
    var value: Any? { get }

    /// Holds `instance` from now on.
    mutating func hold(_ instance: Instance)
}

extension HeldInstance {
    /// Whether `instance` is the very instance held: the same object for a class; the same box
    /// for a permanently cached value.
    func holds(_ instance: Instance) -> Bool {
        self.instance.map { $0.object === instance.object } ?? false
    }
}

/// A uniqued class's instance, held weakly: found again while the app holds it.
struct WeaklyHeld: HeldInstance {
    weak var object: AnyObject?

    static var canDie: Bool { true }

    var isDead: Bool { object == nil }
    var instance: Instance? { object.map { .weak($0) } }
    var value: Any? { object }

    mutating func hold(_ instance: Instance) {
        // Matched here rather than read through `Instance.object`, whose result is an extra
        // retain and release of the object: on the slow path, since the object has a weak
        // reference (every save of a held instance paid it twice).
        switch instance {
        case .weak(let object): self.object = object
        case .strong(let box): self.object = box  // a weak table is never given one
        }
    }
}

/// A permanently cached instance, held strongly for the life of the store (boxed: see ``Instance``).
struct StronglyHeld: HeldInstance {
    var box: StrongInstance?

    static var canDie: Bool { false }

    var isDead: Bool { box == nil }
    var instance: Instance? { box.map { .strong($0) } }
    var value: Any? { box?.value }

    mutating func hold(_ instance: Instance) {
        switch instance {
        case .strong(let box): self.box = box
        // A strong table is only given boxed instances; a bare object is boxed here all the same.
        case .weak(let object): box = StrongInstance(object)
        }
    }
}
