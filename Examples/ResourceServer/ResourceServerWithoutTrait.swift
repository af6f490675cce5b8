#if !Hummingbird
import Foundation

/// `resource-server` in a build without the `Hummingbird` trait: there is no server to run, so
/// it says how to build one (stderr) and exits 64, as the CLI does for a missing option.
@main
enum ResourceServerWithoutTrait {
    static func main() {
        let message = "resource-server: this build has no Hummingbird; build it with `swift build --traits Hummingbird --product resource-server` (README, \"Build options\")\n"
        FileHandle.standardError.write(Data(message.utf8))
        exit(64)
    }
}
#endif
