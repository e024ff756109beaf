// A small to-do model shared by QSDataTests and the QSDataSecondWriter process, so that the
// second process writes the very tables and types the tests' store holds open: projects with
// an ordered list of tasks (deleting a project deletes its tasks).
import Foundation
import QSData

public final class Todo: QSUpdatableObject {
    public let uniqueID: Int64
    public var title: String
    public var done: Bool

    public init(uniqueID: Int64, title: String, done: Bool = false) {
        self.uniqueID = uniqueID
        self.title = title
        self.done = done
    }

    public init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        done = try row["done"]
    }

    public func update(from row: QSRow) throws {
        title = try row["title"]
        done = try row["done"]
    }

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["done"] = done
    }
}

public final class Project: QSUpdatableObject {
    public let uniqueID: Int64
    public var name: String
    public var tasks: [Todo]

    public init(uniqueID: Int64, name: String, tasks: [Todo]) {
        self.uniqueID = uniqueID
        self.name = name
        self.tasks = tasks
    }

    public init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
        tasks = try row.related("tasks")
    }

    public func update(from row: QSRow) throws {
        name = try row["name"]
        tasks = try row.related("tasks")
    }

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
        row.setRelated("tasks", tasks)
    }
}

public enum TodoModel {

    public static let model = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>objects</key><dict>
          <key>Project</key><dict>
            <key>table</key><string>projects</string>
            <key>uniqued</key><true/>
            <key>properties</key><dict>
              <key>uniqueID</key><string>int64</string>
              <key>name</key><string>string</string>
            </dict>
            <key>relationships</key><dict>
              <key>tasks</key><dict>
                <key>table</key><string>projectTasks</string>
                <key>parentID</key><string>projectID</string>
                <key>childID</key><string>taskID</string>
                <key>childClass</key><string>Todo</string>
                <key>indexKey</key><string>ix</string>
                <key>deleteRule</key><string>cascade</string>
              </dict>
            </dict>
          </dict>
          <key>Todo</key><dict>
            <key>table</key><string>tasks</string>
            <key>uniqued</key><true/>
            <key>properties</key><dict>
              <key>uniqueID</key><string>int64</string>
              <key>title</key><string>string</string>
              <key>done</key><string>boolean</string>
            </dict>
          </dict>
        </dict></dict></plist>
        """

    public static let schema = """
        CREATE TABLE projects (uniqueID INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE tasks (uniqueID INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE projectTasks (projectID INTEGER NOT NULL, taskID INTEGER NOT NULL, ix INTEGER NOT NULL, PRIMARY KEY (projectID, taskID));
        CREATE INDEX projectTasksByTask ON projectTasks (taskID);
        """


    /// Opens (creating when new) the to-do store at `url`.
    @MainActor
    public static func openStore(at url: URL) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: QSDataModel(propertyList: Data(model.utf8), fileName: "Todos.plist"),
            schema: QSSchema(creationSQL: schema), types: [Project.self, Todo.self])
    }
}
