/// Reads and sets the change marks (``QSChangedProperties``) of the instances of a class that
/// records which properties it set (``QSChangeTrackingObject``), through the instance's reference.
///
/// The conformance is found once, when the type is registered, rather than by a dynamic cast
/// for every instance saved. Not generic over the type: a generic struct held by the type's
/// binding had its metadata looked up at every save (about 330 instructions).
struct ChangeMarks: Sendable {
    let read: @Sendable (AnyObject) -> QSChangedProperties
    let set: @Sendable (QSChangedProperties, AnyObject) -> Void
    /// Moves the marks out of the object, leaving it none: one access where reading and then
    /// clearing them took two.
    let moveOut: @Sendable (AnyObject) -> QSChangedProperties

    init<Tracking: QSChangeTrackingObject>(for _: Tracking.Type) {
        read = { object in unsafeDowncast(object, to: Tracking.self).changedProperties }
        set = { marks, object in unsafeDowncast(object, to: Tracking.self).changedProperties = marks }
        moveOut = { object in
            var marks = QSChangedProperties()
            swap(&marks, &unsafeDowncast(object, to: Tracking.self).changedProperties)
            return marks
        }
    }

    /// The positions in `layout` of the columns `object` marked, in order, and clears its marks.
    /// A mark naming a relationship is skipped (the store compares children itself); one naming
    /// neither a column nor a relationship fails, leaving the marks as they were.
    func take(from object: AnyObject, layout: RowLayout, description: QSObjectDescription) throws -> (columns: [Int], marks: QSChangedProperties) {
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
    func markedColumns(of object: AnyObject, layout: RowLayout) -> Set<Int> {
        Set(read(object).names.compactMap { layout.index(of: $0) })
    }
}
