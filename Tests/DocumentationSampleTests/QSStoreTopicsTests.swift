import Foundation
import Testing

/// The QSStore article's Topics list every public member of ``QSStore``, once, and nothing else.
@Suite struct QSStoreTopicsTests {
    @Test func theTopicsListEveryPublicMemberOfTheStore() throws {
        let declared = try Self.declaredLinks().sorted()
        let listed = try Self.listedLinks().sorted()
        let missing = declared.filter { link in declared.count(of: link) > listed.count(of: link) }
        let extra = listed.filter { link in listed.count(of: link) > declared.count(of: link) }
        #expect(missing.isEmpty, "QSStore.md's Topics leave out \(Set(missing).sorted())")
        #expect(extra.isEmpty, "QSStore.md's Topics list what QSStore doesn't declare (or lists twice): \(Set(extra).sorted())")
    }

    /// The links of the public members declared under Sources/QSData, without disambiguation.
    static func declaredLinks() throws -> [String] {
        let sources = SampleDriftTests.root.appendingPathComponent("Sources/QSData")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let members = PublicMembers(typeName: "QSStore")
        return try files.flatMap { members.links(in: try String(contentsOf: $0, encoding: .utf8)) }
    }

    /// The symbol links of QSStore.md's Topics, without the `-…` that tells overloads apart.
    static func listedLinks() throws -> [String] {
        let article = SampleDriftTests.root.appendingPathComponent("\(SampleDriftTests.articles)/QSStore.md")
        let markdown = try String(contentsOf: article, encoding: .utf8)
        guard let topics = markdown.range(of: "## Topics") else { return [] }
        return markdown[topics.upperBound...].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("- ``"), line.hasSuffix("``") else { return nil }
            let link = line.dropFirst(4).dropLast(2)
            if let close = link.firstIndex(of: ")") { return String(link[...close]) }
            return String(link.prefix(while: { $0 != "-" }))
        }
    }
}

extension Array where Element: Equatable {
    func count(of element: Element) -> Int { filter { $0 == element }.count }
}
