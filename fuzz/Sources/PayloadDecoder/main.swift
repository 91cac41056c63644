import FuzzDriver
import FuzzSupport
import Foundation

if let seedFolder {
    writeSeeds(PayloadSeeds.fromStandardInput(), to: seedFolder)
    exit(0)
}
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in testOneInput(data, size) })
