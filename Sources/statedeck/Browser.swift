import Foundation

/// Opens a URL in the desktop's browser (`--open`).
enum Browser {
    static func open(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            FileHandle.standardError.write(Data("statedeck: cannot open a browser: \(error)\n".utf8))
        }
    }
}
