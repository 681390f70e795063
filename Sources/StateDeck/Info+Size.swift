extension Info {
    /// The UTF-8 bytes of every string it holds: close to its JSON size, and cheap to count.
    public var textSize: Int {
        let fieldBytes = fields?.reduce(0) { $0 + $1.label.utf8.count + $1.value.utf8.count } ?? 0
        let itemBytes = items?.reduce(0) { $0 + $1.textSize } ?? 0
        return [summary, image, text].reduce(fieldBytes + itemBytes) { $0 + ($1?.utf8.count ?? 0) }
    }
}

extension Info.Item {
    var textSize: Int {
        let actionBytes = actions?.reduce(0) { $0 + $1.id.utf8.count + $1.label.utf8.count } ?? 0
        return id.utf8.count + title.utf8.count + (subtitle?.utf8.count ?? 0) + actionBytes
    }
}
