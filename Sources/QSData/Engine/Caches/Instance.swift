/// An instance as a table of instances keeps it: a uniqued class weakly, a permanently cached
/// one (class or value) strongly.
///
/// One reference either way (a permanently cached instance is boxed), so that copying one costs
/// a retain: instances are copied several times on their way between the two tables, and an
/// `Any` payload went through its type's value witnesses at each copy.
enum Instance {
    case weak(AnyObject)
    case strong(StrongInstance)

    /// The instance as a reference: the object itself for a class, the box of a permanently
    /// cached value.
    var object: AnyObject {
        switch self {
        case .weak(let object): return object
        case .strong(let box):
            if type(of: box.value) is AnyObject.Type { return box.value as AnyObject }
            return box
        }
    }

    /// How a table of `policy` keeps `object`; nil when it keeps nothing.
    ///
    /// Static on this non-generic type rather than on `ObjectCache<Object>`: calling the latter
    /// from unspecialised code looks up the generic class's metadata on every call.
    static func of<Object>(_ object: Object, policy: InstanceTable.Policy) -> Instance? {
        switch policy {
        case .none: return nil
        case .weak: return .weak(reference(object))
        case .strong: return .strong(StrongInstance(object))
        }
    }

    // Weak entries exist only for classes (see `TypeBinding`), whose instances are references:
    // reinterpreting one costs nothing, where `as AnyObject` and `as!` would go through the
    // runtime's dynamic casts on every lookup.
    static func reference<Object>(_ object: Object) -> AnyObject {
        unsafeBitCast(object, to: AnyObject.self)
    }

    static func typedReference<Object>(_ reference: AnyObject, as type: Object.Type) -> Object {
        unsafeBitCast(reference, to: Object.self)
    }

    /// A table holds only instances of its own type, put in through its typed front.
    static func typed<Object>(_ instance: Any, as type: Object.Type) -> Object {
        instance as! Object
    }
}

/// A permanently cached instance, boxed so that an ``Instance`` is one reference.
final class StrongInstance {
    let value: Any

    init(_ value: Any) {
        self.value = value
    }
}
