/// The elements of an array, reached where they lie so that each can be passed on `inout`
/// without being copied. Only for passing elements on to be read: nothing writes through it.
///
/// In unspecialised generic code, an element read out of an array, or through a pointer, is
/// copied (for a class, a retain and a release through its type's value witnesses); passed
/// `inout`, it is not. The array must outlive every use, as inside `withUnsafeBufferPointer`.
/// Two may reach the same element at once (a parent saved among its own children): harmless,
/// since nothing writes through either.
struct InPlace<Element> {
    private let base: UnsafeMutablePointer<Element>?

    init(_ buffer: UnsafeBufferPointer<Element>) {
        base = UnsafeMutablePointer(mutating: buffer.baseAddress)
    }

    subscript(index: Int) -> Element {
        unsafeAddress { UnsafePointer(base.unsafelyUnwrapped + index) }
        nonmutating unsafeMutableAddress { base.unsafelyUnwrapped + index }
    }
}
