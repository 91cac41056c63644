import FuzzDriver
import FuzzSupport
import Foundation

if let seedFolder {
    writeSeeds(IndexTemplate.seeds(), to: seedFolder)
    exit(0)
}
_ = IndexTemplate.events
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) })
