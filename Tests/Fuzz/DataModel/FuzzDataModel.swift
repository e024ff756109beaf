import Foundation
import QSData

/// libFuzzer's entry point for the plist data-model loader: any bytes must load or throw
/// `QSDataError.invalidModel`, never crash. Linked
/// by `.ci/fuzz` with the framework compiled as an instrumented static library.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDataModel(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    do {
        _ = try QSDataModel(propertyList: data, fileName: "fuzz.plist")
    } catch let error as QSDataError {
        guard case .invalidModel = error else { fatalError("unexpected error \(error)") }
    } catch {
        fatalError("an error that is not QSDataError: \(error)")
    }
    return 0
}
