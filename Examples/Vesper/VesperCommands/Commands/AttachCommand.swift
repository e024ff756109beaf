import ArgumentParser
import CommandLineTool
import Foundation
import VesperCore

struct AttachCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach a PNG or JPEG picture to a note.",
        discussion: "The file is copied into the attachments folder beside the database.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The note's ID.")
    var id: Int64

    @Argument(help: "The picture file.")
    var file: String

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let note = try await vesper.note(id: id)
        let attachment = try vesper.userDidAddAttachment(fileAt: URL(fileURLWithPath: file), to: note)
        return CommandOutput(
            text: "Attached \(attachment.mimeType) \(attachment.width)×\(attachment.height) to note \(id).",
            json: VesperJSON.Attachment(attachment, storage: vesper.attachmentStorage))
    }
}
