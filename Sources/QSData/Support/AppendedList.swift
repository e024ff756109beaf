/// A list built by appending, then handed over as an array once complete.
///
/// For code generic over its element that the compiler leaves unspecialised, such as a type
/// binding's fetch, which appends each row's object. There, every `Array.append` looks the
/// array type's generic metadata up in the runtime (a locked table: over 300 instructions) and
/// runs the standard library's unspecialised append; so would any method of a generic struct.
/// A class's methods find their element type in the instance itself, and appending here only
/// moves the element into memory the list manages. The array is made once, by ``finished()``.
///
/// Not `Sendable`: a list has one owner, a local of the function that fills it, on one thread.
final class AppendedList<Element> {
    private var elements: UnsafeMutablePointer<Element>
    private var capacity: Int
    private var count = 0

    init(capacity: Int = 16) {
        self.capacity = Swift.max(capacity, 1)
        elements = .allocate(capacity: self.capacity)
    }

    deinit {
        elements.deinitialize(count: count)
        elements.deallocate()
    }

    func append(_ element: consuming Element) {
        if count == capacity { grow() }
        (elements + count).initialize(to: element)
        count += 1
    }

    /// The elements appended, in order, moved into an array; the list is left empty.
    func finished() -> [Element] {
        let moved = count
        guard moved > 0 else { return [] }
        count = 0
        return [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
            // A buffer of at least one element has an address.
            buffer.baseAddress!.moveInitialize(from: elements, count: moved)
            initialized = moved
        }
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: elements, count: count)
        elements.deallocate()
        elements = larger
        capacity *= 2
    }
}
