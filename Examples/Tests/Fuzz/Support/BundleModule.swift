import Foundation

/// SwiftPM generates `Bundle.module` for a target with resources; the fuzz build compiles
/// VesperCore with swiftc, which does not, so the resources are looked up in the main bundle
/// (the fuzz targets never open a database, so never load them).
extension Bundle {
    static var module: Bundle { .main }
}
