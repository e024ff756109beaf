import QSData
import Testing

/// The marks an instance keeps between saves: each name once, however often or however it was
/// written, and two sets of marks equal whatever order they were noted in.
struct ChangedPropertiesTests {
    @Test
    func aNameMarkedTwiceIsKeptOnce() {
        var marks = QSChangedProperties()
        #expect(marks.isEmpty)
        marks.insert("title")
        marks.insert("title")
        // The same name built at run time, and a long one (more than 15 bytes, kept out of line).
        marks.insert(String("ti") + "tle")
        marks.insert("aVeryLongPropertyName")
        marks.insert(String("aVeryLong") + "PropertyName")
        #expect(marks.propertyNames == ["title", "aVeryLongPropertyName"])
        #expect(marks.contains("title"))
        #expect(marks.contains(String("aVeryLong") + "PropertyName"))
        #expect(!marks.contains("titl"))
        #expect(!marks.isEmpty)
    }

    @Test
    func unchangedValuesMarkNothingAndValuesThatCannotBeComparedAlwaysMark() {
        struct Opaque {}
        var marks = QSChangedProperties()
        marks.insert("title", from: "same", to: "same")
        #expect(marks.isEmpty)
        marks.insert("title", from: "old", to: "new")
        marks.insert("blob", from: Opaque(), to: Opaque())
        #expect(marks.propertyNames == ["title", "blob"])
    }

    @Test
    func marksAreEqualWhateverTheOrderTheyWereNotedIn() {
        var first = QSChangedProperties()
        first.insert("a")
        first.insert("b")
        var second = QSChangedProperties()
        second.insert("b")
        second.insert("a")
        second.insert("a")
        #expect(first == second)

        var third = second
        third.insert("c")
        #expect(third != first)

        var union = QSChangedProperties()
        union.insert("c")
        union.formUnion(first)
        #expect(union == third)
        #expect(QSChangedProperties() == QSChangedProperties())
    }
}
