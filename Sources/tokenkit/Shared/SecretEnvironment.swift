/// The environment variables through which `tokenkit` reads a secret: the encrypted store's
/// passphrase (`TOKENKIT_PASSPHRASE`) and the PostgreSQL password (`PGPASSWORD`). The one
/// list of them, so a program `tokenkit` starts (the browser of `tokenkit login`) is given
/// none of them; a new secret variable is added here.
enum SecretEnvironment {
    /// Every variable `tokenkit` reads a secret from.
    static let names: Set<String> = [PassphraseReader.environmentVariable, DatabaseOptions.passwordVariable]
}
