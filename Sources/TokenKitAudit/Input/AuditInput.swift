/// A source of tokens for an audit, read in batches so memory stays bounded whatever the
/// input's size.
///
/// Implementations: ``TokenLineReader`` (files and stdin, one token a line). A credential
/// store can be audited by an implementation that appends each stored token to a batch.
public protocol AuditInput: AnyObject {
    /// The input's name as the user gave it (`-` for stdin).
    var source: String { get }

    /// The next batch of at most `maxTokens` tokens, or `nil` at the end of the input.
    /// Throws when the input cannot be read; a batch returned before that stays valid.
    func nextBatch(maxTokens: Int) throws(AuditInputError) -> AuditBatch?
}
