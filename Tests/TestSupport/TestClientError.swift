/// How a test client request failed.
public enum TestClientError: Error, Equatable {
    case cannotConnect(String)
    /// Nothing arrived before the deadline.
    case timeout
    /// The server closed the connection where more was expected.
    case closed
    case malformed(String)
}
