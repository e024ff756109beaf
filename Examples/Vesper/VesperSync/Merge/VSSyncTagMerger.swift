import Foundation
import VesperCore

/// Merges the tags the server returns into the local tags, through the sync-apply path.
///
/// For each server tag: a tag missing here is created with the server's name date (not "now",
/// so that it can't later override a newer case change made elsewhere); an existing tag takes
/// the server's name and date when the server's date is later, at millisecond precision.
@MainActor
public struct VSSyncTagMerger {
    public let dataController: VSDataController

    public init(dataController: VSDataController) {
        self.dataController = dataController
    }

    /// Applies the server's tags; returns the names (as they are now) of the tags created or renamed here.
    @discardableResult
    public func merge(_ serverTags: [VSSyncTag]) throws -> [String] {
        var changed: [String] = []
        for serverTag in serverTags {
            if let local = try dataController.tag(named: serverTag.name) {
                guard VSSyncDate.serverWins(serverTag.nameModificationDate, over: local.nameModificationDate) else { continue }
                let renamed = local.name != VSTag.cleanedName(serverTag.name)
                let applied = try dataController.applySyncTag(name: serverTag.name, modificationDate: serverTag.nameModificationDate)
                if renamed, let applied { changed.append(applied.name) }
            } else if let created = try dataController.applySyncTag(name: serverTag.name, modificationDate: serverTag.nameModificationDate) {
                changed.append(created.name)
            }
        }
        return changed
    }
}
