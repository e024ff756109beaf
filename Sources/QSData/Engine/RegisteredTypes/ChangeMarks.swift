/// Reads and sets the change marks (``QSChangedProperties``) of instances of `Object`, a class that
/// records which properties it set (``QSChangeTrackingObject``).
///
/// The conformance is found once, when the type is registered, rather than by a dynamic cast
/// for every instance saved.
struct ChangeMarks<Object>: Sendable {
    let read: @Sendable (Object) -> QSChangedProperties
    let set: @Sendable (QSChangedProperties, Object) -> Void
    /// Moves the marks out of the object, leaving it none: one access where reading and then
    /// clearing them took two.
    let moveOut: @Sendable (Object) -> QSChangedProperties

    init<Tracking: QSChangeTrackingObject>(for _: Tracking.Type) {
        read = { object in Self.tracking(object, as: Tracking.self).changedProperties }
        set = { marks, object in Self.tracking(object, as: Tracking.self).changedProperties = marks }
        moveOut = { object in
            var marks = QSChangedProperties()
            swap(&marks, &Self.tracking(object, as: Tracking.self).changedProperties)
            return marks
        }
    }

    /// `Object` is `Tracking`, a class: reinterpreting the reference costs nothing.
    private static func tracking<Tracking: QSChangeTrackingObject>(_ object: Object, as _: Tracking.Type) -> Tracking {
        unsafeDowncast(unsafeBitCast(object, to: AnyObject.self), to: Tracking.self)
    }

    /// The positions in `layout` of the columns `object` marked, in order, and clears its marks.
    /// A mark naming a relationship is skipped (the store compares children itself); one naming
    /// neither a column nor a relationship fails, leaving the marks as they were.
    func take(from object: Object, layout: RowLayout, description: QSObjectDescription) throws -> (columns: [Int], marks: QSChangedProperties) {
        let marks = moveOut(object)
        guard !marks.isEmpty else { return ([], marks) }
        var columns: [Int] = []
        columns.reserveCapacity(marks.names.count)
        for name in marks.names {
            if let index = layout.index(of: name) {
                if index > 0 { columns.append(index) }  // 0 is the uniqueID, which a row keeps
            } else if layout.relationshipPosition(of: name) == nil {
                set(marks, object)
                throw QSDataError.unknownColumn(type: description.name, column: name)
            }
        }
        columns.sort()
        return (columns, marks)
    }

    /// The positions in `layout` of the columns `object` marked, without clearing them; marks
    /// naming no column are skipped.
    func markedColumns(of object: Object, layout: RowLayout) -> Set<Int> {
        Set(read(object).names.compactMap { layout.index(of: $0) })
    }
}
