// A second process writing a QSData store that a test holds open, for the tests of other
// writers: it opens the store with the same model types (QSDataTodoModel), makes one write through
// the object API, waits for it to commit, prints "done" and exits.
//
//     QSDataSecondWriter create DATABASE
//     QSDataSecondWriter rename DATABASE ID TITLE   (fetch the task, change its title, save it)
//     QSDataSecondWriter add DATABASE ID TITLE      (a new task in project 1)
//     QSDataSecondWriter delete DATABASE ID         (the task)
//     QSDataSecondWriter finish-all DATABASE        (one bulk update of every unfinished task)
//     QSDataSecondWriter delete-project DATABASE ID (the project and, by its rule, its tasks)
import Foundation
import QSData
import QSDataTodoModel

enum SecondWriter {
    @MainActor
    static func run(_ arguments: [String]) async throws {
        guard arguments.count >= 2 else { throw Usage() }
        let command = arguments[0]
        let url = URL(fileURLWithPath: arguments[1])
        let store = try await TodoModel.openStore(at: url)
        switch (command, arguments.count) {
        case ("create", 2):
            break
        case ("rename", 4):
            guard let task = try await store.fetch(Todo.self, id: try id(arguments[2])) else { throw NoSuchTask() }
            task.title = arguments[3]
            try await store.save(task).committed()
        case ("add", 4):
            guard let project = try await store.fetch(Project.self, id: 1) else { throw NoSuchTask() }
            project.tasks.append(Todo(uniqueID: try id(arguments[2]), title: arguments[3]))
            try await store.save(project).committed()
        case ("delete", 3):
            try await store.delete(Todo.self, ids: [try id(arguments[2])]).committed()
        case ("finish-all", 2):
            try await store.update(Todo.self, where: "done = 0", set: ["done": true]).committed()
        case ("delete-project", 3):
            try await store.delete(Project.self, ids: [try id(arguments[2])]).committed()
        default:
            throw Usage()
        }
        try await store.close()
        print("done")
    }

    static func id(_ text: String) throws -> Int64 {
        guard let id = Int64(text) else { throw Usage() }
        return id
    }

    struct Usage: Error {}
    struct NoSuchTask: Error {}
}

do {
    try await SecondWriter.run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("QSDataSecondWriter: \(error)\n".utf8))
    exit(error is SecondWriter.Usage ? 64 : 1)
}
