/// Records what a type reads in `init(row:)` and writes in `encode(to:)`, for the registration check.
final class TypeProbe {
    struct Access {
        let name: String
        let valueType: any QSColumnValue.Type
    }

    private(set) var reads: [Access] = []
    private(set) var writes: [Access] = []
    private(set) var relationshipReads: [String: String] = [:]
    private(set) var relationshipWrites: [String: String] = [:]
    private var isEncoding = false
    /// A sample value of the kind a Swift type reads, for the rows the check makes up.
    let sampleValue: (_ column: String, _ valueType: any QSColumnValue.Type) -> SQLValue?

    init(sampleValue: @escaping (_ column: String, _ valueType: any QSColumnValue.Type) -> SQLValue? = { _, _ in nil }) {
        self.sampleValue = sampleValue
    }

    func recordRead(_ name: String, _ valueType: any QSColumnValue.Type) {
        reads.append(Access(name: name, valueType: valueType))
    }

    func recordWrite(_ name: String, _ valueType: any QSColumnValue.Type) {
        writes.append(Access(name: name, valueType: valueType))
    }

    func recordRelationship(_ name: String, _ childType: String) {
        if isEncoding {
            relationshipWrites[name] = childType
        } else {
            relationshipReads[name] = childType
        }
    }

    func beginEncoding() { isEncoding = true }
}
