// A process that writes to a QSData store until it is killed, for the crash-safety test
// (the crash-safety test). It prints the number of each batch once its transaction has committed.
//
//     QSDataCrashWriter DATABASE_PATH
import Foundation
import QSData

struct Entry: QSDataObject {
    let uniqueID: Int64
    let batch: Int64
    let text: String

    init(uniqueID: Int64, batch: Int64, text: String) {
        self.uniqueID = uniqueID
        self.batch = batch
        self.text = text
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        batch = try row["batch"]
        text = try row["text"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["batch"] = batch
        row["text"] = text
    }
}

enum CrashWriter {
    static let entriesPerBatch: Int64 = 50

    static let model = """
        <plist version="1.0"><dict><key>objects</key><dict>
        <key>Entry</key><dict><key>table</key><string>entries</string><key>properties</key><dict>
        <key>uniqueID</key><string>int64</string><key>batch</key><string>int64</string><key>text</key><string>string</string>
        </dict></dict></dict></dict></plist>
        """

    static let schema = """
        CREATE TABLE entries (uniqueID INTEGER PRIMARY KEY, batch INTEGER NOT NULL, text TEXT NOT NULL);
        CREATE INDEX entriesBatch ON entries (batch);
        """

    @MainActor
    static func run(path: String) async throws {
        let store = try await QSStore.open(
            at: URL(fileURLWithPath: path), model: QSDataModel(propertyList: Data(model.utf8)),
            schema: QSSchema(creationSQL: schema), types: [Entry.self])
        var batch: Int64 = 0
        while true {
            batch += 1
            let entries = (0..<entriesPerBatch).map {
                Entry(uniqueID: batch * 1_000 + $0, batch: batch, text: String(repeating: "w", count: 500))
            }
            try await store.save(entries).committed()
            FileHandle.standardOutput.write(Data("\(batch)\n".utf8))
        }
    }
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: QSDataCrashWriter DATABASE_PATH\n".utf8))
    exit(64)
}
do {
    try await CrashWriter.run(path: CommandLine.arguments[1])
} catch {
    FileHandle.standardError.write(Data("QSDataCrashWriter: \(error)\n".utf8))
    exit(1)
}
