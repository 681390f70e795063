import StateDeck

extension DemoDeck {
    /// A photo download whose view only hears "downloaded", "downloading" and "error": a material
    /// spinner for the first load, the photo dimmed under a spinner while it refreshes, and three
    /// distinct failures (an invalid URL, an answer that is not a photo, an unsupported format),
    /// each with its own title and detail.
    static func photoDownload(seed: UInt64) -> Panel {
        let simulation = Simulation(seed: seed, panel: "photo")
        return Panel("photo", title: "Photo download") {
            try await simulation.latency(600...1_800)
            let roll = simulation.unit()
            switch roll {
            case ..<0.12:
                throw PanelError(.notFound, title: "Invalid image URL",
                                 message: "The photo's address is not a valid URL.",
                                 detail: "invalidImageUrl: \"htp:/photos/42\"")
            case ..<0.24:
                throw PanelError(.invalidResponse, title: "Invalid server response",
                                 message: "The server answered, but not with a photo.",
                                 detail: "invalidServerResponse: HTTP 200, Content-Type text/html")
            case ..<0.34:
                throw PanelError(.invalidResponse, title: "Unsupported image",
                                 message: "The photo arrived in a format that can't be shown.",
                                 detail: "unsupportedImage: image/x-portable-anymap")
            default:
                return Info(
                    summary: "Downloaded lake.svg",
                    fields: [
                        Info.Field("Size", "\(140 + Int(roll * 60)) KB"), demoField("Download states and their errors"),
                    ],
                    image: "/demo/photo.svg"
                )
            }
        }
        .refresh(every: .seconds(20))
        .presentation(initialLoading: .material, loadingAfterInfo: .overCurrentContent(contentOpacity: 0.6, alignment: .center))
        .successMessage { _ in "Photo downloaded" }
    }
}
