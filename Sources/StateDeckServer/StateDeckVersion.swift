/// The version of StateDeck this build is: a fixture says which StateDeck wrote it.
public enum StateDeckVersion {
    public static let current = "0.1.0"
}
