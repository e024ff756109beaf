import Foundation
import QSData
import QSDataModelCodeGen
import Testing

/// A mistake in a data model fails the generator — and so the build — with the message the
/// store's loader gives for the same file: the file, the type and the key.
@Suite(.enabled(if: GeneratorFixtures.generator != nil, "the QSDataModelGenerator executable was not built"))
struct BadModelTests {
    struct BadModel: Sendable, CustomTestStringConvertible {
        let key: String
        let problem: String
        /// Keys of a generated `Book` type, besides its table and uniqueID.
        let keys: String
        var testDescription: String { key }
    }

    static let badModels = [
        BadModel(
            key: "properties.title",
            problem: "unknown type 'strin?' (known: int64, double, boolean, string, date, data, plist, json; add '?' for one that may be NULL)",
            keys: "<key>generate</key><true/><key>properties</key><dict>\(uniqueID)<key>title</key><string>strin?</string></dict>"),
        BadModel(
            key: "properties.uniqueID", problem: "must be int64 or string, not string?",
            keys: "<key>properties</key><dict><key>uniqueID</key><string>string?</string></dict>"),
        BadModel(
            key: "generate", problem: "must be a boolean (<true/> or <false/>)",
            keys: "<key>generate</key><string>yes</string><key>properties</key><dict>\(uniqueID)</dict>"),
        BadModel(
            key: "kind", problem: "applies only to a type whose 'generate' is <true/>",
            keys: "<key>kind</key><string>struct</string><key>properties</key><dict>\(uniqueID)</dict>"),
        BadModel(
            key: "kind", problem: "must be one of: struct, class",
            keys: "<key>generate</key><true/><key>kind</key><string>enum</string><key>properties</key><dict>\(uniqueID)</dict>"),
        BadModel(
            key: "setterAccess", problem: "must be one of: public, internal, private",
            keys: "<key>generate</key><true/><key>setterAccess</key><string>open</string><key>properties</key><dict>\(uniqueID)</dict>"),
        BadModel(
            key: "swiftTypes.tags",
            problem: "missing: a plist property of a generated type needs its Swift type (for example [String], or a Codable struct)",
            keys: "<key>generate</key><true/><key>properties</key><dict>\(uniqueID)<key>tags</key><string>plist</string></dict>"),
        BadModel(
            key: "swiftTypes.title",
            problem: "write the Swift type without '?': the property's type in the model ('string?') says whether it may be NULL",
            keys: """
            <key>generate</key><true/><key>swiftTypes</key><dict><key>title</key><string>String?</string></dict>
            <key>properties</key><dict>\(uniqueID)<key>title</key><string>string</string></dict>
            """),
        BadModel(
            key: "swiftTypes.author", problem: "the type has no property or relationship of that name",
            keys: """
            <key>generate</key><true/><key>swiftTypes</key><dict><key>author</key><string>URL</string></dict>
            <key>properties</key><dict>\(uniqueID)</dict>
            """),
        BadModel(
            key: "swiftNames.title",
            problem: "'book title' is not a Swift identifier (ASCII letters, digits and _, not starting with a digit): give it another name in 'swiftNames'",
            keys: """
            <key>generate</key><true/><key>swiftNames</key><dict><key>title</key><string>book title</string></dict>
            <key>properties</key><dict>\(uniqueID)<key>title</key><string>string</string></dict>
            """),
        BadModel(
            key: "properties.default", problem: "'default' is a Swift keyword: give it another name in 'swiftNames'",
            keys: "<key>generate</key><true/><key>properties</key><dict>\(uniqueID)<key>default</key><string>boolean</string></dict>"),
        BadModel(
            key: "properties.title", problem: "the Swift name 'title' is already the name of 'subtitle'",
            keys: """
            <key>generate</key><true/><key>swiftNames</key><dict><key>subtitle</key><string>title</string></dict>
            <key>properties</key><dict>\(uniqueID)<key>title</key><string>string</string><key>subtitle</key><string>string</string></dict>
            """),
        BadModel(
            key: "swiftNames.uniqueID", problem: "uniqueID keeps its name: QSDataObject requires it",
            keys: """
            <key>generate</key><true/><key>swiftNames</key><dict><key>uniqueID</key><string>id</string></dict>
            <key>properties</key><dict>\(uniqueID)</dict>
            """),
        BadModel(
            key: "conformances", problem: "every entry must be a protocol name, such as Equatable",
            keys: "<key>generate</key><true/><key>conformances</key><array><string>Equatable, Hashable</string></array><key>properties</key><dict>\(uniqueID)</dict>"),
        BadModel(
            key: "kind",
            problem: "a uniqued type must be a class: a struct is copied, so no one instance can be shared (write 'class', or leave 'kind' out)",
            keys: "<key>uniqued</key><true/><key>generate</key><true/><key>kind</key><string>struct</string><key>properties</key><dict>\(uniqueID)</dict>"),
        BadModel(
            key: "swiftTypes.published", problem: "'String' can't hold a date property: use Date, or a type of your own conforming to QSColumnValue",
            keys: """
            <key>generate</key><true/><key>swiftTypes</key><dict><key>published</key><string>String</string></dict>
            <key>properties</key><dict>\(uniqueID)<key>published</key><string>date</string></dict>
            """),
        BadModel(
            key: "swiftTypes.pages", problem: "'[Int]' can't hold an int64 property: use Int64 or Int, or a type of your own conforming to QSColumnValue",
            keys: """
            <key>generate</key><true/><key>swiftTypes</key><dict><key>pages</key><string>[Int]</string></dict>
            <key>properties</key><dict>\(uniqueID)<key>pages</key><string>int64</string></dict>
            """),
        BadModel(
            key: "swiftTypes.notes",
            problem: "'Swift.String' can't hold a json property: use an array or dictionary of Codable values, or a type conforming to QSStructuredValue",
            keys: """
            <key>generate</key><true/><key>swiftTypes</key><dict><key>notes</key><string>Swift.String</string></dict>
            <key>properties</key><dict>\(uniqueID)<key>notes</key><string>json</string></dict>
            """),
        BadModel(
            key: "swiftTypes.title",
            problem: "QSRelated holds a relationship's children, not a property's value: a string property is String or URL, or a type of your own conforming to QSColumnValue",
            keys: """
            <key>generate</key><true/><key>swiftTypes</key><dict><key>title</key><string>QSRelated&lt;Book&gt;</string></dict>
            <key>properties</key><dict>\(uniqueID)<key>title</key><string>string</string></dict>
            """),
        BadModel(
            key: "swiftTypes.sequels",
            problem: "'[Book]' does not fit: the relationship is loaded lazily (its 'loading' is 'lazy'), so a fetch gives its children's IDs only: its Swift type is QSRelated<Book>",
            keys: """
            <key>generate</key><true/><key>swiftTypes</key><dict><key>sequels</key><string>[Book]</string></dict>
            <key>properties</key><dict>\(uniqueID)</dict>\(sequels(loading: "lazy"))
            """),
        BadModel(
            key: "swiftTypes.sequels",
            problem: "'QSRelated<Book>' does not fit: the relationship is loaded eagerly (its 'loading' is 'eager' or absent): its Swift type is [Book]; make it lazy to read it as QSRelated<Book>",
            keys: """
            <key>generate</key><true/><key>swiftTypes</key><dict><key>sequels</key><string>QSRelated&lt;Book&gt;</string></dict>
            <key>properties</key><dict>\(uniqueID)</dict>\(sequels(loading: "eager"))
            """),
        BadModel(
            key: "swiftName", problem: "the Swift type's name 'Book Item' is not a Swift identifier (ASCII letters, digits and _, not starting with a digit)",
            keys: "<key>generate</key><true/><key>swiftName</key><string>Book Item</string><key>properties</key><dict>\(uniqueID)</dict>"),
        BadModel(
            key: "propertyOrder", problem: "must list every property and relationship; missing: title",
            keys: """
            <key>generate</key><true/><key>propertyOrder</key><array><string>uniqueID</string></array>
            <key>properties</key><dict>\(uniqueID)<key>title</key><string>string</string></dict>
            """),
        BadModel(
            key: "propertyOrder", problem: "'author' is not a property or relationship of the type",
            keys: """
            <key>generate</key><true/><key>propertyOrder</key><array><string>uniqueID</string><string>author</string></array>
            <key>properties</key><dict>\(uniqueID)</dict>
            """),
        BadModel(
            key: "propertyOrder", problem: "lists 'uniqueID' twice",
            keys: """
            <key>generate</key><true/><key>propertyOrder</key><array><string>uniqueID</string><string>uniqueID</string></array>
            <key>properties</key><dict>\(uniqueID)</dict>
            """),
    ]

    /// A relationship from a book to other books.
    private static func sequels(loading: String) -> String {
        """
        <key>relationships</key><dict><key>sequels</key><dict>
        <key>table</key><string>sequelsLookup</string><key>parentID</key><string>bookID</string>
        <key>childID</key><string>sequelID</string><key>indexKey</key><string>ix</string>
        <key>childClass</key><string>Book</string><key>loading</key><string>\(loading)</string></dict></dict>
        """
    }

    private static let uniqueID = "<key>uniqueID</key><string>string</string>"

    @Test(arguments: badModels)
    func theGeneratorFailsWithTheLoadersMessage(_ bad: BadModel) throws {
        let url = try GeneratorFixtures.modelFile("<key>Book</key><dict><key>table</key><string>books</string>\(bad.keys)</dict>")
        let loaderError = #expect(throws: QSDataError.self) { try GeneratedModel(contentsOf: url) }
        #expect(loaderError == .invalidModel(file: "Bad.plist", type: "Book", key: bad.key, problem: bad.problem))

        let output = url.deletingLastPathComponent().appendingPathComponent("Bad+Generated.swift")
        let run = try GeneratorFixtures.runGenerator([url.path, "--output", output.path], output: output)
        #expect(run.status == 1)
        #expect(run.standardError == "\(url.path): error: \(loaderError.map(String.init(describing:)) ?? "")\n")
        #expect(run.output == nil, "nothing is written for a bad model")
    }

    @Test func twoTypesCantHaveOneSwiftName() throws {
        let url = try GeneratorFixtures.modelFile("""
        <key>Task</key><dict><key>table</key><string>tasks</string><key>generate</key><true/>
        <key>swiftName</key><string>Chore</string><key>properties</key><dict>\(Self.uniqueID)</dict></dict>
        <key>Chore</key><dict><key>table</key><string>chores</string><key>properties</key><dict>\(Self.uniqueID)</dict></dict>
        """)
        #expect(throws: QSDataError.invalidModel(
            file: "Bad.plist", type: "Task", key: "swiftName", problem: "the Swift type name 'Chore' is already the name of 'Chore'")) {
            try GeneratedModel(contentsOf: url)
        }
    }

    @Test func aFileThatIsNotAPropertyListIsNamed() throws {
        let url = GeneratorFixtures.temporaryFolder().appendingPathComponent("Notes.plist")
        try Data("{ not a plist".utf8).write(to: url)
        let output = url.deletingLastPathComponent().appendingPathComponent("Notes+Generated.swift")
        let run = try GeneratorFixtures.runGenerator([url.path, "--output", output.path], output: output)
        #expect(run.status == 1)
        #expect(run.standardError == "\(url.path): error: Invalid data model: Notes.plist: not a property list\n")
    }

    @Test func aGoodModelIsWrittenWhereTheBuildAsks() throws {
        let output = GeneratorFixtures.temporaryFolder().appendingPathComponent("Library+Generated.swift")
        let run = try GeneratorFixtures.runGenerator(
            [GeneratorFixtures.libraryModel.path, "--output", output.path, "--access", "public"], output: output)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.output == (try GeneratorFixtures.generate(GeneratorFixtures.libraryModel, access: .public)))
    }

    @Test func missingArgumentsPrintTheUsage() throws {
        let output = GeneratorFixtures.temporaryFolder().appendingPathComponent("Nothing.swift")
        let run = try GeneratorFixtures.runGenerator([GeneratorFixtures.libraryModel.path], output: output)
        #expect(run.status == 1)
        #expect(run.standardError.hasPrefix("error: a model file and --output are required\nusage: QSDataModelGenerator"))
    }
}
