#ifndef TOKENKIT_CRELEASELINK_SHIM_H
#define TOKENKIT_CRELEASELINK_SHIM_H

// What the release link adds to `tokenkit`, seen from the CLI. Both symbols are weak: a build
// that does not link them in (swift build, swift run) has neither, and the CLI then behaves
// as that build always did. scripts/build-tokenkit-release links in, with -Xlinker (no
// compiler flag changes, nothing is recompiled for them):
//   - tokenkit_build_commit: the commit `tokenkit --version` names (from git rev-parse HEAD);
//   - tokenkit_libcurl_load: the loader of Packaging/lazy-libcurl.c, which makes the static
//     binary load libcurl (FoundationNetworking's HTTP) on its first HTTP request instead of
//     at start-up.
// Imported by the CLI only.

/// The NUL-terminated commit text, or an undefined weak symbol (address 0).
extern const char tokenkit_build_commit[] __attribute__((weak));

/// Loads libcurl.so.4 now: 1 when usable, else 0 with a static NUL-terminated reason in
/// *reason. An undefined weak symbol (address 0) when the build did not link the loader.
extern int tokenkit_libcurl_load(const char **reason) __attribute__((weak));

/// The commit text the build linked in, or NULL when it linked none.
static inline const char *tokenkit_release_commit(void) {
    return tokenkit_build_commit;
}

/// 1 when HTTP can be used: the build linked libcurl normally (no loader), or the loader
/// loaded it. Else 0, with the loader's reason in *reason.
static inline int tokenkit_release_http_ready(const char **reason) {
    if (tokenkit_libcurl_load == 0) return 1;
    return tokenkit_libcurl_load(reason);
}

#endif
